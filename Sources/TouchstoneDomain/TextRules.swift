import Foundation
import TouchstoneStorage

/// The rules for text that people type or read: usernames, device and passkey names, what a confirmation shows.
///
/// Lengths count Unicode code points (a grapheme cluster can hold any number of them). The text must already be in NFC,
/// compared scalar by scalar (Swift's `==` on strings calls canonically equivalent spellings equal), and may hold no
/// scalar of category Cc, Cf, Zl or Zp and no Default_Ignorable_Code_Point scalar, so that what is stored is what
/// is seen.
enum TextRules {
    /// What the text is for, which decides the rules beyond the common ones.
    package enum Use: Sendable {
        /// A name that identifies something (username, device, passkey): no white space at either end.
        case name
        /// Text a device shows for approval (confirmation text, payee): no space but U+0020, no blank-looking symbol,
        /// and at least one letter or digit.
        case shown
    }

    /// General categories that carry no visible character of their own, or break a line.
    private static let hiddenCategories: Set<Unicode.GeneralCategory> = [
        .control, .format, .lineSeparator, .paragraphSeparator,
    ]

    /// Checks `value` against the rules for `use`.
    /// - Parameters:
    ///   - field: the field's name in the request, for the problem's detail.
    ///   - length: the allowed number of Unicode code points.
    /// - Throws: 400 `invalid_request` naming `field` and the rule it breaks.
    package static func check(_ value: String, field: String, length: ClosedRange<Int>, use: Use = .name) throws {
        let scalars = value.unicodeScalars
        // Counted first, so that nothing longer is ever normalised.
        guard length.contains(scalars.count) else {
            throw ProblemError.invalidRequest(
                "\(field) must have \(length.lowerBound) to \(length.upperBound) characters (Unicode code points)")
        }
        guard scalars.elementsEqual(value.precomposedStringWithCanonicalMapping.unicodeScalars) else {
            throw ProblemError.invalidRequest("\(field) must be in Unicode NFC")
        }
        guard !scalars.contains(where: isHidden) else {
            throw ProblemError.invalidRequest(
                "\(field) may not contain control, format, line-separator or invisible (default-ignorable) characters")
        }
        switch use {
        case .name:
            guard let first = scalars.first, let last = scalars.last,
                !first.properties.isWhitespace, !last.properties.isWhitespace
            else { throw ProblemError.invalidRequest("\(field) may not begin or end with white space") }
        case .shown:
            guard !scalars.contains(where: isBlankLooking) else {
                throw ProblemError.invalidRequest(
                    "\(field) may hold no space but U+0020 and no blank-looking symbol (U+2800)")
            }
            guard scalars.contains(where: isLetterOrDigit) else {
                throw ProblemError.invalidRequest("\(field) must contain a letter or digit")
            }
        }
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        hiddenCategories.contains(scalar.properties.generalCategory) || scalar.properties.isDefaultIgnorableCodePoint
    }

    /// Symbols drawn as blank space: U+2800 BRAILLE PATTERN BLANK (the other blank letters, the Hangul fillers, are
    /// default-ignorable).
    private static let blankSymbols: Set<Unicode.Scalar> = ["\u{2800}"]

    /// A space separator (Zs) other than U+0020, such as U+00A0 or U+3000, or one of ``blankSymbols``: two payees that
    /// differ only there would look the same.
    private static func isBlankLooking(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.properties.generalCategory == .spaceSeparator && scalar != " ") || blankSymbols.contains(scalar)
    }

    /// General category L* or N*.
    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            false
        }
    }
}
