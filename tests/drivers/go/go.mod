module kith.dev/tests/drivers/go

go 1.22

require github.com/neo4j/neo4j-go-driver/v5 v5.28.4
