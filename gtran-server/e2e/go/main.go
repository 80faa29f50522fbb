// gtran end to end through gremlin-go: add, read, commit, roll back, a conflict (status 596), and
// elements read back by the ids the server gave them.
package main

import (
	"fmt"
	"os"
	"strings"

	gremlingo "github.com/apache/tinkerpop/gremlin-go/v3/driver"
)

const label = "go"

func check(cond bool, what string) {
	if !cond {
		fmt.Println("E2E client=go FAILED: " + what)
		os.Exit(1)
	}
}

func count(g *gremlingo.GraphTraversalSource) int64 {
	r, err := g.V().HasLabel(label).Count().Next()
	check(err == nil, fmt.Sprint("count: ", err))
	n, err := r.GetInt64()
	check(err == nil, fmt.Sprint("count value: ", err))
	return n
}

func main() {
	conn, err := gremlingo.NewDriverRemoteConnection(os.Args[1])
	check(err == nil, fmt.Sprint("connect: ", err))
	defer conn.Close()
	g := gremlingo.Traversal_().WithRemote(conn)

	check(<-g.V().HasLabel(label).Drop().Iterate() == nil, "drop")
	check(<-g.AddV(label).Property("name", "a").Property("n", 1).Iterate() == nil, "add")
	names, err := g.V().HasLabel(label).Values("name").ToList()
	check(err == nil && len(names) == 1 && names[0].GetString() == "a", "sessionless add then read")

	tx := g.Tx()
	gtx, err := tx.Begin()
	check(err == nil, fmt.Sprint("begin: ", err))
	check(<-gtx.AddV(label).Property("name", "b").Iterate() == nil, "add in tx")
	check(count(g) == 1, "uncommitted write invisible to others")
	check(tx.Commit() == nil, "commit")
	check(count(g) == 2, "commit makes it visible")

	tx = g.Tx()
	gtx, _ = tx.Begin()
	check(<-gtx.AddV(label).Property("name", "c").Iterate() == nil, "add to roll back")
	check(tx.Rollback() == nil, "rollback")
	check(count(g) == 2, "rollback discards")

	first, second := g.Tx(), g.Tx()
	one, _ := first.Begin()
	two, _ := second.Begin()
	check(<-one.V().Has(label, "name", "a").Property("n", 2).Iterate() == nil, "first write")
	conflict := <-two.V().Has(label, "name", "a").Property("n", 3).Iterate()
	if conflict == nil {
		conflict = second.Commit()
	}
	check(conflict != nil, "second writer must fail")
	msg := conflict.Error()
	check(strings.Contains(msg, "596") || strings.Contains(msg, "conflict"), "retryable conflict error: "+msg)
	_ = second.Rollback() // ends the aborted transaction the server kept (after a failed Commit there is none)
	check(first.Commit() == nil, "first commits")
	n, err := g.V().Has(label, "name", "a").Values("n").Next()
	check(err == nil, fmt.Sprint("read n: ", err))
	v, _ := n.GetInt32()
	check(v == 2, fmt.Sprint("exactly one write took effect, n=", v))
	readBackByID(g)
	fmt.Println("E2E client=go ok")
}

// id runs a traversal ending in an element and returns its id, which gremlin-go gives as an int64.
func id(t *gremlingo.GraphTraversal) int64 {
	r, err := t.Id().Next()
	check(err == nil, fmt.Sprint("id: ", err))
	i, ok := r.GetInterface().(int64)
	check(ok, fmt.Sprintf("id is an int64: %T %v", r.GetInterface(), r.GetInterface()))
	return i
}

// list runs a traversal and returns its results, to compare with fmt.Sprint.
func list(t *gremlingo.GraphTraversal) string {
	results, err := t.ToList()
	check(err == nil, fmt.Sprint("list: ", err))
	values := make([]interface{}, len(results))
	for i, r := range results {
		values[i] = r.GetInterface()
	}
	return fmt.Sprint(values)
}

// readBackByID: docs/server.md, "Element ids".
func readBackByID(g *gremlingo.GraphTraversalSource) {
	__ := gremlingo.T__
	a := id(g.AddV(label).Property("name", "id-a"))
	b := id(g.AddV(label).Property("name", "id-b"))
	e := id(g.AddE("knows").From(__.V(a)).To(__.V(b)).Property("name", "id-e"))
	check(list(g.V(a).Values("name")) == "[id-a]", "g.V(id)")
	va, err := g.V(a).Next()
	check(err == nil, fmt.Sprint("g.V(id).Next(): ", err))
	vertex, err := va.GetVertex()
	check(err == nil, fmt.Sprint("a vertex: ", err))
	check(list(g.V(vertex).Values("name")) == "[id-a]", "g.V(vertex)")
	check(list(g.V().HasId(b).Values("name")) == "[id-b]", "HasId")
	check(list(g.V(a, b).Values("name").Order()) == "[id-a id-b]", "g.V(id, id)")
	check(list(g.E(e).Values("name")) == "[id-e]", "g.E(id)")
	check(list(g.E().HasId(e).InV().Id()) == fmt.Sprint([]interface{}{b}), "g.E().HasId(id) and its in-vertex")

	p := id(g.V(a).Properties("name"))
	check(list(g.V(a).Properties("name").HasId(p).Value()) == "[id-a]", "vertex property by id")
	multi := gremlingo.Cardinality.List
	check(<-g.V(a).Property(multi, "tag", "x").Property(multi, "tag", "y").Iterate() == nil, "list properties")
	tags, err := g.V(a).Properties("tag").Id().ToList()
	check(err == nil && len(tags) == 2, fmt.Sprint("two list properties: ", err))
	t0, t1 := tags[0].GetInterface(), tags[1].GetInterface()
	_, isInt64 := t1.(int64)
	check(isInt64 && t0 != t1, fmt.Sprint("two int64 ids: ", t0, t1))
	check(list(g.V(a).Properties("tag").HasId(t1).Value()) == "[y]", "list property by id")

	edge := func(label string, from, to int64) map[interface{}]interface{} {
		return map[interface{}]interface{}{gremlingo.T.Label: label, gremlingo.Direction.Out: from, gremlingo.Direction.In: to}
	}
	merged := id(g.MergeE(edge("knows", a, b)))
	check(merged == e, fmt.Sprint("MergeE with ids finds the edge: ", merged, " != ", e))
	created := id(g.MergeE(edge("likes", b, a)))
	check(list(g.E(created).OutV().Values("name")) == "[id-b]", "MergeE with ids creates the edge")

	// ids that name nothing find nothing, not another element: a dropped vertex's, a rolled-back
	// vertex's (whose slot the next vertex may take), an edge's as a vertex's, another property's
	gone := id(g.AddV(label).Property("name", "gone"))
	check(<-g.V(gone).Drop().Iterate() == nil, "drop")
	check(list(g.V(gone)) == "[]", "a dropped vertex's id")
	tx := g.Tx()
	gtx, err := tx.Begin()
	check(err == nil, fmt.Sprint("begin: ", err))
	rolledBack := id(gtx.AddV(label).Property("name", "rolled back"))
	check(tx.Rollback() == nil, "rollback")
	again := id(g.AddV(label).Property("name", "again"))
	check(list(g.V(rolledBack)) == "[]", "a rolled-back vertex's id")
	check(list(g.V(again).Values("name")) == "[again]", "the next vertex by its id")
	check(list(g.V(e)) == "[]" && list(g.E(a)) == "[]", "an edge's id names no vertex, a vertex's no edge")
	check(list(g.V(a).Properties("name").HasId(t0)) == "[]", "another property's id")
}
