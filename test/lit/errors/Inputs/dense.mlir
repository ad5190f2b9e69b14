// A module with an elements attribute of 8 elements.
"test.op"() {data = dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>} : () -> ()
