import TouchstoneProtocol

/// An APNs alert's body: `{"aps":{"alert":{"title","body"},"sound":"default","mutable-content":1,
/// "category":"touchstone.<kind>"},"touchstone":{"v":1,"kind","id","deviceId"(,"event")}}` — the fixed text of
/// ``PushText`` and the item's reference, nothing else.
struct APNsPayload: Encodable {
    struct APS: Encodable {
        struct Alert: Encodable {
            let title: String
            let body: String
        }

        let alert: Alert
        let sound = "default"
        let mutableContent = 1
        let category: String

        private enum CodingKeys: String, CodingKey {
            case alert, sound, mutableContent = "mutable-content", category
        }
    }

    struct Reference: Encodable {
        let v = PushReference.version
        let kind: String
        let id: String
        let deviceId: String
        let event: String?
    }

    let aps: APS
    let touchstone: Reference

    init(_ reference: PushReference) {
        let text = PushText(reference)
        aps = APS(
            alert: APS.Alert(title: text.title, body: text.body), category: "touchstone." + reference.kind.rawValue)
        touchstone = Reference(
            kind: reference.kind.rawValue, id: reference.id, deviceId: reference.deviceId,
            event: reference.event?.rawValue)
    }
}
