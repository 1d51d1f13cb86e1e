package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/gqlkit/gqlkit/sqlstore"
)

// sqlDB adapts a *sql.DB to sqlstore.DB. It prepares each statement once
// (database/sql then prepares it on each connection the first time that
// connection runs it): SQLite would otherwise compile the same SQL on every
// call, which cost 12–19 % of a list request's CPU.
type sqlDB struct {
	db    *sql.DB
	stmts *stmtCache
}

func newSQLDB(db *sql.DB) sqlDB { return sqlDB{db: db, stmts: &stmtCache{}} }

func (d sqlDB) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	st, err := d.stmts.get(ctx, d.db, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	return sqlstore.SQLRows{Rows: rows}, nil
}

func (d sqlDB) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	st, err := d.stmts.get(ctx, d.db, query)
	if err != nil {
		return errRow{err}
	}
	return st.QueryRowContext(ctx, args...)
}

func (d sqlDB) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	st, err := d.stmts.get(ctx, d.db, query)
	if err != nil {
		return 0, err
	}
	res, err := st.ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// readSnapshot runs fn in a read transaction: BEGIN DEFERRED whatever
// _txlock says (the driver's way for a read-only transaction), so that it
// takes no write lock, and in WAL mode every statement sees the snapshot
// the first one took while writers go on.
func (d sqlDB) readSnapshot(ctx context.Context, fn func(sqlstore.DB) error) error {
	tx, err := d.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("sqlite: beginning a read transaction: %w", err)
	}
	if err := fn(txDB{tx: tx, parent: d}); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// txDB adapts a transaction of an sqlDB to sqlstore.DB, with the
// statements that sqlDB prepared.
type txDB struct {
	tx     *sql.Tx
	parent sqlDB
}

func (d txDB) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	st, err := d.parent.stmts.get(ctx, d.parent.db, query)
	if err != nil {
		return nil, err
	}
	return d.tx.StmtContext(ctx, st), nil // closed with the transaction
}

func (d txDB) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	st, err := d.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	return sqlstore.SQLRows{Rows: rows}, nil
}

func (d txDB) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	st, err := d.stmt(ctx, query)
	if err != nil {
		return errRow{err}
	}
	return st.QueryRowContext(ctx, args...)
}

func (d txDB) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	st, err := d.stmt(ctx, query)
	if err != nil {
		return 0, err
	}
	res, err := st.ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// stmtCache holds the statements prepared on one *sql.DB, by their SQL.
// The stores run a fixed set of statements, so it never grows past it.
type stmtCache struct {
	mu     sync.RWMutex
	stmts  map[string]*sql.Stmt
	closed bool
}

// get returns the statement for query, preparing it on first use. A
// failed preparation (a cancelled ctx, a locked schema) is not kept.
func (c *stmtCache) get(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	c.mu.RLock()
	st, ok := c.stmts[query]
	c.mu.RUnlock()
	if ok {
		return st, nil
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.stmts[query]; ok || c.closed {
		// Another caller prepared it first, or the store is closing.
		_ = st.Close()
		if ok {
			return prev, nil
		}
		return nil, errors.New("sqlite: the store is closed")
	}
	if c.stmts == nil {
		c.stmts = make(map[string]*sql.Stmt)
	}
	c.stmts[query] = st
	return st, nil
}

// close closes every statement; later calls to get fail.
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	var errs []error
	for _, st := range c.stmts {
		errs = append(errs, st.Close())
	}
	c.stmts = nil
	return errors.Join(errs...)
}

// errRow is a Row whose statement could not be prepared.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
