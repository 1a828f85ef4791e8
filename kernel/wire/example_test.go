package wire_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tick-kernel/tick/kernel/wire"
)

func Example() {
	key := []byte("connection-file-key")
	req := &wire.Message{
		Identities: [][]byte{[]byte("client")},
		Header:     wire.NewHeader("kernel_info_request", "session-1"),
		Content:    json.RawMessage(`{}`),
	}
	frames, err := wire.Encode(req, key)
	if err != nil {
		panic(err)
	}
	got, err := wire.Decode(frames, key)
	fmt.Println(got.Header.MsgType, got.Header.Version, string(got.Identities[0]), err)

	_, err = wire.Decode(frames, []byte("another key"))
	var bad *wire.SignatureError
	fmt.Println(errors.As(err, &bad))
	// Output:
	// kernel_info_request 5.3 client <nil>
	// true
}
