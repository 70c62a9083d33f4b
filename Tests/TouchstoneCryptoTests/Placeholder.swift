import Testing
@Test func placeholderTouchstoneCryptoTests() { #expect(Bool(true)) }
