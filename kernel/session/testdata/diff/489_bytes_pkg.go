package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
)

func main() {
	b := []byte("hello world")
	fmt.Println(bytes.Contains(b, []byte("wor")), bytes.ToUpper(b)[0], string(bytes.Title(b[:5])))
	sum := sha256.Sum256(b)
	fmt.Println(hex.EncodeToString(sum[:4]))
	enc := base64.StdEncoding.EncodeToString(b)
	dec, _ := base64.StdEncoding.DecodeString(enc)
	fmt.Println(enc, string(dec))
	fmt.Println(bytes.Equal([]byte("a"), []byte("a")), bytes.Split([]byte("a,b"), []byte(",")))
}

// Output:
// true 72 Hello
// b94d27b9
// aGVsbG8gd29ybGQ= hello world
// true [[97] [98]]
