import Foundation
import Testing
import TouchstoneProtocol

/// RFC 8785 (JCS) on the RFC's own examples and on outputs of the `rfc8785` package from PyPI (an implementation
/// nobody here wrote), and I-JSON reading (RFC 7493).
@Suite struct CanonicalJSONTests {
    /// The canonical bytes of `text`, compared as bytes: Swift's `==` on strings calls canonically equivalent texts
    /// equal.
    private func canonical(_ text: String) throws -> [UInt8] {
        try CanonicalJSON.bytes(of: try StrictJSONParser.parse(text.utf8))
    }

    /// RFC 8785 §3.2.2: whitespace, literals, numbers and string escapes.
    @Test func theRFCsSerializationExampleGivesItsOutput() throws {
        let input = #"""
            {
              "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
              "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
              "literals": [null, true, false]
            }
            """#
        #expect(
            try canonical(input)
                == Array(#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#.utf8)
        )
    }

    /// RFC 8785 §3.2.3: member names sorted by their UTF-16 code units (the emoji's surrogates before U+FB33).
    @Test func theRFCsSortingExampleGivesItsOrder() throws {
        let input = #"""
            {
              "\u20ac": "Euro Sign",
              "\r": "Carriage Return",
              "\ufb33": "Hebrew Letter Dalet With Dagesh",
              "1": "One",
              "\ud83d\ude00": "Emoji: Grinning Face",
              "\u0080": "Control",
              "\u00f6": "Latin Small Letter O With Diaeresis"
            }
            """#
        #expect(
            try canonical(input)
                == Array("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\",\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\",\"\u{FB33}\":\"Hebrew Letter Dalet With Dagesh\"}".utf8)
        )
    }

    /// RFC 8785 Appendix B: IEEE 754 doubles (by their bits) and how ECMAScript writes them.
    @Test(arguments: [
        (0x0000_0000_0000_0000, "0"), (0x8000_0000_0000_0000, "0"), (0x0000_0000_0000_0001, "5e-324"),
        (0x8000_0000_0000_0001, "-5e-324"), (0x7FEF_FFFF_FFFF_FFFF, "1.7976931348623157e+308"),
        (0x4340_0000_0000_0000, "9007199254740992"), (0xC340_0000_0000_0000, "-9007199254740992"),
        (0x4430_0000_0000_0000, "295147905179352830000"), (0x44B5_2D02_C7E1_4AF5, "9.999999999999997e+22"),
        (0x44B5_2D02_C7E1_4AF6, "1e+23"), (0x44B5_2D02_C7E1_4AF7, "1.0000000000000001e+23"),
        (0x444B_1AE4_D6E2_EF4E, "999999999999999700000"), (0x444B_1AE4_D6E2_EF4F, "999999999999999900000"),
        (0x444B_1AE4_D6E2_EF50, "1e+21"), (0x3EB0_C6F7_A0B5_ED8C, "9.999999999999997e-7"),
        (0x3EB0_C6F7_A0B5_ED8D, "0.000001"), (0x41B3_DE43_5555_5553, "333333333.3333332"),
        (0x41B3_DE43_5555_5554, "333333333.33333325"), (0x41B3_DE43_5555_5555, "333333333.3333333"),
        (0x41B3_DE43_5555_5556, "333333333.3333334"), (0x41B3_DE43_5555_5557, "333333333.33333343"),
        (0xBECB_F647_612F_3696, "-0.0000033333333333333333"), (0x4314_3FF3_C1CB_0959, "1424953923781206.2"),
    ] as [(UInt64, String)])
    func theRFCsNumberExamplesAreWrittenAsECMAScriptWritesThem(_ bits: UInt64, _ expected: String) throws {
        #expect(try CanonicalJSON.text(of: .number(Double(bitPattern: bits))) == expected)
    }

    /// Outputs of `rfc8785` 0.1 (PyPI), `rfc8785.dumps(json.loads(input))`, recorded when this test was written.
    @Test(arguments: [
        (
            #"{"b":"\u007f\u0000\u001f\u2028","a":["\ud834\udd1e","é",{"z":{},"y":[]}]}"#,
            "{\"a\":[\"𝄞\",\"é\",{\"y\":[],\"z\":{}}],\"b\":\"\u{7F}\\u0000\\u001f\u{2028}\"}"
        ),
        (
            #"[{"type":"payment_initiation","instructedAmount":{"currency":"EUR","amount":"123.50"},"creditorName":"Merchant A","creditorAccount":{"iban":"DE02100100109307118603"},"remittanceInformationUnstructured":"Ref Number Merchant"}]"#,
            #"[{"creditorAccount":{"iban":"DE02100100109307118603"},"creditorName":"Merchant A","instructedAmount":{"amount":"123.50","currency":"EUR"},"remittanceInformationUnstructured":"Ref Number Merchant","type":"payment_initiation"}]"#
        ),
        (
            #"{"\u00e9":1,"e\u0301":2,"\uff41":3,"\ud800\udc00":4,"\ue000":5}"#,
            "{\"e\u{301}\":2,\"\u{E9}\":1,\"\u{10000}\":4,\"\u{E000}\":5,\"\u{FF41}\":3}"
        ),
        (
            "[1e-7,123e-20,1e21,1e20,-0.0,0.1,100,1.5e300,12345678901234567890,0.000001,123456.789,-5e-324]",
            "[1e-7,1.23e-18,1e+21,100000000000000000000,0,0.1,100,1.5e+300,12345678901234567000,0.000001,123456.789,-5e-324]"
        ),
        (
            #"{"b":"\u007f\u0000\u001f\u2028\b\f\t\r\n\"\\\/"}"#,
            "{\"b\":\"\u{7F}\\u0000\\u001f\u{2028}\\b\\f\\t\\r\\n\\\"\\\\/\"}"
        ),
    ])
    func outputsOfThePyPIImplementationAreMatched(_ input: String, _ expected: String) throws {
        #expect(try canonical(input) == Array(expected.utf8))
    }

    /// I-JSON (RFC 7493) and RFC 8259: what the strict reader refuses.
    @Test(arguments: [
        #"{"a":"1","a":"2"}"#, #"[{"x":{"n":1,"n":1}}]"#, "{\"\u{E9}\":1,\"\u{E9}\":2}", #"["\ud800"]"#,
        #"["\udc00x"]"#, #"["\ud800\u0041"]"#, #"[1,]"#, #"{"a":1,}"#, "[01]", "[1.]", "[.5]", "[+1]", "[1e]",
        "[\"a\u{1}\"]", #"["\x"]"#, "[tru]", "[] []", "", "[1e400]", #"{'a':1}"#,
        String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
    ])
    func textThatIsNotIJSONIsRefused(_ text: String) {
        #expect(throws: StrictJSONParser.Refusal.self) { try StrictJSONParser.parse(text.utf8) }
    }

    /// Canonically equivalent names are different names (compared scalar by scalar), and invalid UTF-8 is refused.
    @Test func namesAreComparedByScalarsAndBytesMustBeUTF8() throws {
        let equivalent = try StrictJSONParser.parse("{\"\u{E9}\":1,\"e\u{301}\":2}".utf8)
        if case .object(let members) = equivalent { #expect(members.count == 2) } else { Issue.record("not an object") }
        #expect(throws: StrictJSONParser.Refusal.self) {
            try StrictJSONParser.parse([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D])
        }
    }
}
