import Testing
@testable import TouchstoneWebAuthn
@Test func placeholderWebAuthn() { #expect(Bool(true)) }
