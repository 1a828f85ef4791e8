package main

import (
	"os"
	"strings"
	"text/template"
)

type Item struct {
	Name  string
	Count int
}

func main() {
	tpl := template.Must(template.New("t").Funcs(template.FuncMap{"up": strings.ToUpper}).Parse("{{range .}}{{up .Name}}={{.Count}};{{end}}\n"))
	tpl.Execute(os.Stdout, []Item{{"a", 1}, {"b", 2}})
}

// Output:
// A=1;B=2;
