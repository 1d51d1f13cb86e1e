package sqlstore

import "testing"

// TestSQLThrottleQueries: the statements built for any number of keys
// are those written out for two.
func TestSQLThrottleQueries(t *testing.T) {
	if got := selectFailuresQuery(3); got != selectFailuresHead+"$2, $3, $4)" {
		t.Errorf("SELECT of 3 keys: %s", got)
	}
	if got := upsertFailuresQuery(1); got != upsertFailuresHead+"($2, 1, $3)"+upsertFailuresTail {
		t.Errorf("upsert of 1 key: %s", got)
	}
	for _, tt := range []struct{ got, want string }{
		{listQuery(selectFailuresHead, 2, 1, func(p, _ string) string { return p }, ")"), selectFailures2},
		{listQuery(upsertFailuresHead, 2, 2, func(k, e string) string { return "(" + k + ", 1, " + e + ")" }, upsertFailuresTail), upsertFailures2},
	} {
		if tt.got != tt.want {
			t.Errorf("built:\n%s\nwritten out:\n%s", tt.got, tt.want)
		}
	}
}
