extension AppPolicy {
    /// Why `pin` does not fit this policy (digits only, within `pinLength`, not one digit repeated, not a run such
    /// as 123456 or 654321), or `nil` when it fits. Server and SDK apply the same rule.
    public func pinProblem(_ pin: String) -> String? {
        let digits = Array(pin.utf8)
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return "a PIN has digits only"
        }
        guard (pinLength.min...pinLength.max).contains(digits.count) else {
            return "a PIN has \(pinLength.min) to \(pinLength.max) digits"
        }
        let steps = zip(digits.dropFirst(), digits).map { Int($0) - Int($1) }
        if steps.allSatisfy({ $0 == 0 }) || steps.allSatisfy({ $0 == 1 }) || steps.allSatisfy({ $0 == -1 }) {
            return "a PIN may not be one digit repeated or a run such as 123456"
        }
        return nil
    }
}
