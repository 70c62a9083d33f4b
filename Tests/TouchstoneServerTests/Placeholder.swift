import Testing
@Test func placeholderServer() { #expect(Bool(true)) }
