import Testing
@Test func placeholderClient() { #expect(Bool(true)) }
