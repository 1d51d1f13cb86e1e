package sdltest

import (
	"fmt"
	"strings"
)

// context is the number of unchanged lines Diff shows around a change.
const context = 3

// maxCells bounds the table of the line matching (lines of a times lines
// of b, once the common start and end are set aside); past it, the
// changed middle is shown whole as removed and added.
const maxCells = 4 << 20

// Diff returns the lines of a and b that differ, in hunks headed
// "@@ -line +line @@" (1-based numbers of the hunk's first line in a and
// in b): lines only in a marked "-", only in b "+", and up to 3 unchanged
// lines around each change marked " ". It is "" when a and b are equal.
func Diff(a, b string) string {
	if a == b {
		return ""
	}
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	ops := lineOps(al, bl)
	var out strings.Builder
	// Walk the ops, printing each change with its context.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-context, 0)
		// Extend the hunk while changes are closer than 2*context lines.
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*context {
				break
			}
		}
		stop := min(end+context+1, len(ops))
		fmt.Fprintf(&out, "@@ -%d +%d @@\n", ops[start].a+1, ops[start].b+1)
		for _, op := range ops[start:stop] {
			out.WriteByte(op.kind)
			out.WriteString(op.text)
			out.WriteByte('\n')
		}
		i = stop
	}
	return strings.TrimSuffix(out.String(), "\n")
}

// op is one line of the diff: its kind (' ', '-', '+'), its text, and the
// 0-based line numbers in a and b it stands at.
type op struct {
	kind byte
	text string
	a, b int
}

// lineOps matches the lines of a and b: the common start and end, and a
// longest common subsequence of the middle when it is small enough.
func lineOps(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for i := range pre {
		ops = append(ops, op{' ', a[i], i, i})
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	ops = append(ops, middle(am, bm, pre)...)
	for k := suf; k > 0; k-- {
		i, j := len(a)-k, len(b)-k
		ops = append(ops, op{' ', a[i], i, j})
	}
	return ops
}

// middle diffs the lines between the common start (of length off) and
// end.
func middle(a, b []string, off int) []op {
	var ops []op
	if (len(a)+1)*(len(b)+1) > maxCells {
		for i, l := range a {
			ops = append(ops, op{'-', l, off + i, off})
		}
		for j, l := range b {
			ops = append(ops, op{'+', l, off + len(a), off + j})
		}
		return ops
	}
	// lcs[i][j]: the length of a longest common subsequence of a[i:], b[j:].
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, op{' ', a[i], off + i, off + j})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
			ops = append(ops, op{'-', a[i], off + i, off + j})
			i++
		default:
			ops = append(ops, op{'+', b[j], off + i, off + j})
			j++
		}
	}
	return ops
}
