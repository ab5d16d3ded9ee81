package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"go.yaml.in/yaml/v3"
)

// yamlToJSON implements `compose-validate -yaml-to-json [FILE]`: every document of a
// multi-document YAML stream (FILE, or standard input) as one JSON array, empty documents
// left out. The deployment tests read kustomize's output with it, so they need no YAML
// library of their own.
func yamlToJSON(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	in := stdin
	if len(args) > 1 {
		fmt.Fprintln(stderr, "usage: compose-validate -yaml-to-json [FILE]")
		return 2
	}
	if len(args) == 1 && args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			fmt.Fprintf(stderr, "compose-validate: %v\n", err)
			return 2
		}
		defer f.Close()
		in = f
	}
	dec := yaml.NewDecoder(in)
	docs := []any{}
	for {
		var doc any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Fprintf(stderr, "INVALID YAML: %v\n", err)
			return 1
		}
		if doc != nil {
			docs = append(docs, doc)
		}
	}
	b, err := json.Marshal(docs)
	if err != nil {
		// A map with non-string keys (e.g. `1: x`) has no JSON form.
		fmt.Fprintf(stderr, "INVALID YAML: no JSON form: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, string(b))
	return 0
}
