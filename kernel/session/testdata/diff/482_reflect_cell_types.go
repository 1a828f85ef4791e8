package main

import (
	"fmt"
	"reflect"
)

type User struct {
	Name string `json:"name"`
	Age  int    `json:"age"`
}

func main() {
	t := reflect.TypeOf(User{})
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		fmt.Println(f.Name, f.Type, f.Tag.Get("json"))
	}
	v := reflect.ValueOf(User{"ann", 30})
	fmt.Println(v.Field(0), v.NumField(), v.Kind())
}

// Output:
// Name string name
// Age int age
// ann 2 struct
