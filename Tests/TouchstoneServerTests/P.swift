import Testing; @Test func t() { #expect(true) }
