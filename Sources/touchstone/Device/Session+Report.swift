import TouchstoneProtocol

extension Session {
    /// Prints the session as one JSON object, or a line for people.
    func report(json: Bool) throws {
        if json {
            try printJSON(self)
        } else {
            print("logged in as user \(userId) (\(amr.map(\.rawValue).joined(separator: ", ")), \(acr)); the access token lasts \(expiresIn) s")
        }
    }
}
