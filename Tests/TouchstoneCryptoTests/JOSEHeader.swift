/// A JWS protected header written by hand, so tests can say anything in it.
struct JOSEHeader: Sendable {
    var alg: String?
    var kid: String?
    var typ: String?
    /// Further members as raw JSON text, such as `"crit":["exp"]`.
    var extra: [String] = []

    /// The header as compact JSON text, members in the order alg, kid, typ, extra.
    var json: String {
        var members: [String] = []
        if let alg { members.append(#""alg":"\#(alg)""#) }
        if let kid { members.append(#""kid":"\#(kid)""#) }
        if let typ { members.append(#""typ":"\#(typ)""#) }
        members += extra
        return "{" + members.joined(separator: ",") + "}"
    }
}
