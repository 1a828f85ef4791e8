package main

import "fmt"

type Config struct {
	Name    string
	Retries int
	Tags    map[string]string
}

func main() {
	var c Config
	fmt.Println(c.Name == "", c.Retries, c.Tags == nil, len(c.Tags))
	fmt.Printf("%+v\n", c)
	c2 := Config{Name: "x"}
	fmt.Printf("%v %q\n", c2, c2.Name)
	pc := new(Config)
	pc.Retries = 3
	fmt.Printf("%+v\n", *pc)
}

// Output:
// true 0 true 0
// {Name: Retries:0 Tags:map[]}
// {x 0 map[]} "x"
// {Name: Retries:3 Tags:map[]}
