import Testing
@Test func placeholderTouchstoneCLITests() { #expect(Bool(true)) }
