// Command ferretdb-launcher runs FerretDB v1 embedded, so the project has a
// MongoDB wire-protocol server without Docker or a MongoDB package.
//
// Flags (or environment): -listen (FERRETDB_LISTEN, default 127.0.0.1:27017),
// -sqlite-dir (FERRETDB_SQLITE_DIR), -postgresql-url (FERRETDB_POSTGRESQL_URL;
// when set the PostgreSQL back end is used instead of SQLite).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func env(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func main() {
	listen := flag.String("listen", env("FERRETDB_LISTEN", "127.0.0.1:27017"), "TCP address to listen on")
	sqliteDir := flag.String("sqlite-dir", env("FERRETDB_SQLITE_DIR", ".data/ferretdb"), "directory of the SQLite back end")
	pgURL := flag.String("postgresql-url", env("FERRETDB_POSTGRESQL_URL", ""), "PostgreSQL URL (selects the PostgreSQL back end)")
	flag.Parse()

	// The embedded package never reports telemetry; make sure nothing else does.
	os.Setenv("FERRETDB_TELEMETRY", "disable")
	os.Setenv("DO_NOT_TRACK", "1")

	cfg := &ferretdb.Config{Listener: ferretdb.ListenerConfig{TCP: *listen}}
	if *pgURL != "" {
		cfg.Handler = "postgresql"
		cfg.PostgreSQLURL = *pgURL
	} else {
		dir, err := filepath.Abs(*sqliteDir)
		if err != nil {
			log.Fatalf("ferretdb: sqlite dir: %v", err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			log.Fatalf("ferretdb: cannot create %s: %v", dir, err)
		}
		cfg.Handler = "sqlite"
		cfg.SQLiteURL = "file:" + dir + "/"
	}

	f, err := ferretdb.New(cfg)
	if err != nil {
		log.Fatalf("ferretdb: %v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	fmt.Printf("ferretdb: listening on %s (%s back end)\n", *listen, cfg.Handler)
	if err := f.Run(ctx); err != nil && ctx.Err() == nil {
		log.Fatalf("ferretdb: %v", err)
	}
}
