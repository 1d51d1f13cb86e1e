package sqlstore

// The statements of articles both stores run, verbatim. PostgreSQL and SQLite both bind
// $N to the Nth argument, and every construct below means the same in
// both dialects (INSERT … RETURNING needs SQLite 3.35 or later; TRUE needs
// 3.23). Only the schema (the migrations) differs per dialect.
const (
	// countPublished counts the published articles: what a list answers
	// when its page is empty.
	countPublished = `SELECT count(*) FROM articles WHERE published = TRUE`

	// listPublished reads one page with its authors, each row led by the
	// number of published articles: one statement, so that the total and
	// the page are one snapshot. $1 = limit, $2 = offset.
	listPublished = `SELECT (SELECT count(*) FROM articles WHERE published = TRUE), a.id, a.user_id, a.title, a.body, a.published, a.created_at, a.updated_at, u.name
FROM articles AS a JOIN users AS u ON u.id = a.user_id
WHERE a.published = TRUE
ORDER BY a.created_at DESC, a.id DESC
LIMIT $1 OFFSET $2`

	// findPublished reads one published article with its author. $1 = id.
	findPublished = `SELECT a.id, a.user_id, a.title, a.body, a.published, a.created_at, a.updated_at, u.name
FROM articles AS a JOIN users AS u ON u.id = a.user_id
WHERE a.id = $1 AND a.published = TRUE`

	// insertArticle stores an article and returns its id and its author's
	// name. A user_id without a user is a foreign-key violation, so the
	// check and the insert are one atomic statement. $1 = user_id,
	// $2 = title, $3 = body, $4 = published, $5 = created_at = updated_at.
	insertArticle = `INSERT INTO articles (user_id, title, body, published, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $5)
RETURNING id, (SELECT name FROM users WHERE users.id = articles.user_id)`

	// deleteOwnArticle deletes an article if it belongs to the user.
	// $1 = article id, $2 = user id.
	deleteOwnArticle = `DELETE FROM articles WHERE id = $1 AND user_id = $2`

	// explainDelete tells why deleteOwnArticle deleted nothing: whether
	// the user exists, and the owner of the article (NULL when there is
	// none). $1 = article id, $2 = user id.
	explainDelete = `SELECT EXISTS (SELECT 1 FROM users WHERE id = $2), a.user_id
FROM (SELECT 1 AS one) AS single LEFT JOIN articles AS a ON a.id = $1`
)

// The keyset pages of ListPublishedFrom: no OFFSET, a range on created_at
// that the index articles (published, created_at) serves, the id breaking
// ties among articles created in the same microsecond.
const (
	// listFromTop reads the first page. $1 = limit.
	listFromTop = `SELECT a.id, a.user_id, a.title, a.body, a.published, a.created_at, a.updated_at, u.name
FROM articles AS a JOIN users AS u ON u.id = a.user_id
WHERE a.published = TRUE
ORDER BY a.created_at DESC, a.id DESC
LIMIT $1`

	// listAfter reads the page after a position, newest first.
	// $1 = created_at, $2 = id, $3 = limit.
	listAfter = `SELECT a.id, a.user_id, a.title, a.body, a.published, a.created_at, a.updated_at, u.name
FROM articles AS a JOIN users AS u ON u.id = a.user_id
WHERE a.published = TRUE AND a.created_at <= $1 AND (a.created_at < $1 OR a.id < $2)
ORDER BY a.created_at DESC, a.id DESC
LIMIT $3`

	// listBefore reads the articles nearest before a position (newer
	// ones), oldest first, and returns them newest first. The author's
	// name is named author, whatever the column of the table of users.
	// $1 = created_at, $2 = id, $3 = limit.
	listBefore = `SELECT p.id, p.user_id, p.title, p.body, p.published, p.created_at, p.updated_at, p.author
FROM (SELECT a.id, a.user_id, a.title, a.body, a.published, a.created_at, a.updated_at, u.name AS author
	FROM articles AS a JOIN users AS u ON u.id = a.user_id
	WHERE a.published = TRUE AND a.created_at >= $1 AND (a.created_at > $1 OR a.id > $2)
	ORDER BY a.created_at ASC, a.id ASC
	LIMIT $3) AS p
ORDER BY p.created_at DESC, p.id DESC`
)
