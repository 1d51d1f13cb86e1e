package sqlstore

import (
	"context"
	"database/sql"
	"time"
)

// core is what [Users] and [Articles] share: the pools of a [Database],
// its driver's ways, and its idempotency keys, whose claims their writes
// join. It is not changed after [New].
type core struct {
	readDB, writeDB DB
	snapshot        func(ctx context.Context, fn func(DB) error) error
	violation       func(error) Violation
	bindTime        func(time.Time) any
	now             func() time.Time // for new users and articles without CreatedAt
	keys            *Keys            // nil in some tests
}

// writer returns where the writes of a request with context ctx run: the
// transaction of the idempotency claim the request holds on this database
// (see [Keys.Tx]), begun by its first write, so that they
// commit together with the recorded answer; or else Writer. It fails when
// the claim was taken over by another request.
func (c *core) writer(ctx context.Context) (DB, error) {
	if c.keys == nil {
		return c.writeDB, nil
	}
	tx, err := c.keys.Tx(ctx)
	switch {
	case err != nil:
		return nil, err
	case tx != nil:
		return txDB{tx}, nil
	}
	return c.writeDB, nil
}

// reader returns where the reads of a request with context ctx run: the
// transaction of its idempotency claim once a write has begun it, so that
// a request never holds one connection while it waits for another; or
// else the Reader of the Database.
func (c *core) reader(ctx context.Context) DB {
	if c.keys != nil {
		if tx, ok := c.keys.ActiveTx(ctx); ok {
			return txDB{tx}
		}
	}
	return c.readDB
}

// readSnapshot runs fn as the ReadSnapshot of the Database does, or, once a write has begun
// the transaction of the request's idempotency claim, in that
// transaction, which sees the request's own writes. On PostgreSQL it reads
// at read committed: each of fn's statements sees what was committed
// before it began.
func (c *core) readSnapshot(ctx context.Context, fn func(DB) error) error {
	if c.keys != nil {
		if tx, ok := c.keys.ActiveTx(ctx); ok {
			return fn(txDB{tx})
		}
	}
	return c.snapshot(ctx, fn)
}

// txDB adapts a *sql.Tx to DB.
type txDB struct{ tx *sql.Tx }

func (d txDB) Query(ctx context.Context, query string, args ...any) (Rows, error) {
	rows, err := d.tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return SQLRows{rows}, nil
}

func (d txDB) QueryRow(ctx context.Context, query string, args ...any) Row {
	return d.tx.QueryRowContext(ctx, query, args...)
}

func (d txDB) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := d.tx.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// SQLRows adapts *sql.Rows to Rows, whose Close reports nothing (as
// pgx's).
type SQLRows struct{ *sql.Rows }

// Close closes the rows.
func (r SQLRows) Close() { _ = r.Rows.Close() }

// WriteReturning runs a write with a RETURNING clause through q (a
// *sql.DB, *sql.Conn or *sql.Tx) and scans its one row into dest, reading
// the result to its end (sql.ErrNoRows when there is no row). QueryRow
// would stop after the first row: SQLite then commits an autocommit write
// when the statement is reset, where it skips its automatic WAL
// checkpoint, and under a stream of such inserts the WAL grows without
// bound (hundreds of MB in a few seconds). Use it for an application's own
// tables beside the stores' (sqlite.Store.WriteDB).
func WriteReturning(ctx context.Context, q interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}, query string, args []any, dest ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	return scanReturning(SQLRows{rows}, dest...)
}

// writeReturning is WriteReturning through a DB.
func writeReturning(ctx context.Context, db DB, query string, args []any, dest ...any) error {
	rows, err := db.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	return scanReturning(rows, dest...)
}

// scanReturning scans the first row of rows into dest and reads the rest
// to its end; it closes rows.
func scanReturning(rows Rows, dest ...any) error {
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	for rows.Next() {
	}
	return rows.Err()
}
