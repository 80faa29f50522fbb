module gtran/e2e

go 1.22

require github.com/apache/tinkerpop/gremlin-go/v3 v3.8.1
