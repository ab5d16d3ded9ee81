// Command ferretdb-launcher runs FerretDB v1 embedded, so the project has a
// MongoDB wire-protocol server without Docker or a MongoDB package.
//
// Flags (or environment): -listen (FERRETDB_LISTEN, default 127.0.0.1:27017),
// -sqlite-dir (FERRETDB_SQLITE_DIR), -sqlite-params (FERRETDB_SQLITE_PARAMS, the
// SQLite URI's query), -postgresql-url (FERRETDB_POSTGRESQL_URL; when set the
// PostgreSQL back end is used instead of SQLite).
//
// SQLite runs with synchronous=NORMAL by default: FerretDB sets WAL mode, and with
// WAL the default FULL makes every commit wait for an fsync of the log. NORMAL syncs
// at checkpoints only: a killed FerretDB loses nothing (the log is in the OS's
// buffers); a power loss may lose the last commits, as MongoDB's default write
// concern may (it acknowledges before its journal's group commit). Measured here:
// 400 concurrent inserts 0.9-1.1 s with FULL, 0.25-0.3 s with NORMAL; a serial
// update 2.5 ms against 1.7 ms.
//
// Go's collector runs at GOGC=400 with a 512 MiB soft limit (GOMEMLIMIT) unless the
// environment sets them: FerretDB decodes every stored document it reads from JSON, its
// live heap is small (tens of MB), so at Go's default of 100 it collected after every few
// MB of garbage and spent a third of its CPU on it. Measured here with documents of 12 KB
// read and replaced by _id, 8 at a time: 4.1-4.3 ms of FerretDB CPU per command at the
// default, 2.3-3.1 ms at 400; RSS 65-77 MB.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
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
	sqliteParams := flag.String("sqlite-params", env("FERRETDB_SQLITE_PARAMS", "_pragma=synchronous(normal)"), "query of the SQLite URI (e.g. _pragma=synchronous(full))")
	pgURL := flag.String("postgresql-url", env("FERRETDB_POSTGRESQL_URL", ""), "PostgreSQL URL (selects the PostgreSQL back end)")
	flag.Parse()

	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(512 << 20)
	}

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
		if *sqliteParams != "" {
			cfg.SQLiteURL += "?" + *sqliteParams
		}
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
