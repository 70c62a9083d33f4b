import TouchstoneProtocol

/// The PIN format of a policy: digits only, within the policy's length, not trivial.
enum PINRules {
    /// - Throws: ``ProblemError`` `invalid_pin` saying what is wrong.
    static func check(_ pin: String, policy: AppPolicy) throws {
        let digits = Array(pin.utf8)
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw ProblemError.invalidPIN("a PIN has digits only")
        }
        guard (policy.pinLength.min...policy.pinLength.max).contains(digits.count) else {
            throw ProblemError.invalidPIN("a PIN has \(policy.pinLength.min) to \(policy.pinLength.max) digits")
        }
        guard !isTrivial(digits) else {
            throw ProblemError.invalidPIN("a PIN may not be one digit repeated or a run such as 123456")
        }
    }

    /// All one digit, or every step +1 or every step −1 (123456, 654321).
    static func isTrivial(_ digits: [UInt8]) -> Bool {
        let steps = zip(digits.dropFirst(), digits).map { Int($0) - Int($1) }
        return steps.allSatisfy { $0 == 0 } || steps.allSatisfy { $0 == 1 } || steps.allSatisfy { $0 == -1 }
    }
}
