// gtran end to end through gremlin-go: add, read, commit, roll back, and a conflict (status 596).
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
	fmt.Println("E2E client=go ok")
}
