// compose-validate loads a Compose file the way `docker compose` does (compose-go v2),
// strictly, without a Docker engine: schema validation (unknown keys, wrong types,
// bad durations), interpolation (an unset `${VAR:?message}` is an error), and the
// consistency checks (undefined depends_on targets, networks, volumes).
// Warnings that compose would only print (an unset `${VAR}` without default,
// the obsolete `version:` key) are errors here unless -allow-warnings is given.
//
// Usage:
//
//	compose-validate [-env-file FILE]... [-project-name NAME] [-json] [-allow-warnings] [COMPOSE_FILE...]
//	compose-validate -yaml-to-json [FILE]    (any multi-document YAML as a JSON array; see yamljson.go)
//
// With no COMPOSE_FILE, docker-compose.yml in the current directory is loaded.
// With no -env-file, a .env beside the first compose file is read if it exists
// (as docker compose does). Variables of the process environment override the
// env files. Prints "OK ..." (or, with -json, the resolved project as JSON) and
// exits 0; prints the error and exits 1; exits 2 on bad usage.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/sirupsen/logrus"
)

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// warningCollector turns compose-go's logrus warnings into a list we can fail on.
type warningCollector struct{ messages []string }

func (w *warningCollector) Levels() []logrus.Level {
	return []logrus.Level{logrus.PanicLevel, logrus.FatalLevel, logrus.ErrorLevel, logrus.WarnLevel}
}

func (w *warningCollector) Fire(e *logrus.Entry) error {
	w.messages = append(w.messages, e.Message)
	return nil
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-yaml-to-json" {
		os.Exit(yamlToJSON(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compose-validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var envFiles stringList
	fs.Var(&envFiles, "env-file", "env file for interpolation (repeatable; later files override earlier ones)")
	name := fs.String("project-name", "aict", "compose project name")
	asJSON := fs.Bool("json", false, "print the resolved project as JSON instead of OK")
	allowWarnings := fs.Bool("allow-warnings", false, "do not fail on compose warnings (e.g. an unset ${VAR} without default)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: compose-validate [-env-file FILE]... [-project-name NAME] [-json] [-allow-warnings] [COMPOSE_FILE...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"docker-compose.yml"}
	}
	for _, f := range envFiles {
		// compose-go reports a missing env file, but say plainly which flag was wrong.
		if st, err := os.Stat(f); err != nil || st.IsDir() {
			fmt.Fprintf(stderr, "compose-validate: -env-file %s: not a readable file\n", f)
			return 2
		}
	}

	warnings := &warningCollector{}
	logrus.SetOutput(io.Discard)
	logrus.AddHook(warnings)

	project, err := load(files, envFiles, *name)
	if err == nil && !*allowWarnings && len(warnings.messages) > 0 {
		err = fmt.Errorf("compose warnings (treated as errors; -allow-warnings to ignore):\n  %s",
			strings.Join(warnings.messages, "\n  "))
	}
	if err != nil {
		fmt.Fprintf(stderr, "INVALID %s: %v\n", strings.Join(files, ", "), err)
		return 1
	}

	if *asJSON {
		b, err := json.MarshalIndent(project, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "compose-validate: cannot encode project: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	services := make([]string, 0, len(project.Services))
	for n := range project.Services {
		services = append(services, n)
	}
	sort.Strings(services)
	fmt.Fprintf(stdout, "OK %s (project %s; %d services: %s)\n",
		strings.Join(files, ", "), project.Name, len(services), strings.Join(services, ", "))
	if len(warnings.messages) > 0 {
		fmt.Fprintf(stderr, "warnings:\n  %s\n", strings.Join(warnings.messages, "\n  "))
	}
	return 0
}

func load(files, envFiles []string, name string) (*types.Project, error) {
	opts, err := cli.NewProjectOptions(files,
		cli.WithName(name),
		cli.WithOsEnv,
		cli.WithEnvFiles(envFiles...),
		cli.WithDotEnv,
		cli.WithConsistency(true),
		cli.WithInterpolation(true),
	)
	if err != nil {
		return nil, err
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, errors.New("no project loaded")
	}
	return p, nil
}
