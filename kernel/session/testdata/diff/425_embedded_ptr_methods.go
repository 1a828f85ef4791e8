package main

import (
	"fmt"
	"strings"
)

type Logger struct {
	prefix string
	lines  []string
}

func (l *Logger) Log(s string) { l.lines = append(l.lines, l.prefix+s) }

type Service struct {
	*Logger
	name string
}

func main() {
	s := Service{&Logger{prefix: "[svc] "}, "api"}
	s.Log("start")
	s.Log("stop")
	fmt.Println(strings.Join(s.lines, "; "), len(s.Logger.lines))
}

// Output:
// [svc] start; [svc] stop 2
