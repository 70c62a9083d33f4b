import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

extension WebPageTests {
    /// A site asks for a payment at sign-in: the provider's page names it and offers only the phone, the phone shows
    /// the payment and approves it, and the site's code redeems to tokens carrying the payment.
    @Test("a sign-in with a payment is approved on the phone only")
    func paymentAtSignIn() async throws {
        try await BrowserHarness.run { harness in
            let page = harness.page
            let site = try await ShopSite.register(harness)
            let phone = try await enrolPhone(harness, username: "pa")
            let payment = #"[{"type":"payment_initiation","instructedAmount":{"currency":"EUR","amount":"123.50"},"creditorName":"Merchant A"}]"#

            try await page.navigate(try site.authorize(["authorization_details": payment]))
            try await page.waitUntil(
                "document.querySelector('#provider-context-text').textContent.includes('123.50 EUR to Merchant A')",
                "the payment named")
            #expect(try await !page.isVisible("#tab-password"))
            #expect(try await !page.isVisible("#tab-passkey"))
            #expect(try await page.isVisible("#panel-device"))
            try await page.screenshot("provider-10-payment")

            let number = try await requestApproval(page, username: "pa")
            let item = try await webLoginItem(harness, phone)
            #expect(item.payment?.amount == "123.50" && item.payment?.creditorName == "Merchant A", "\(item)")
            try await harness.device(phone, ["approve", item.id, "--number", "\(number)", "--verifier", "match"])

            let landed = try await site.landedParameters(page)
            let tokens = try await site.redeem(try #require(landed["code"], "\(landed)"), harness)
            #expect(tokens.status == 200, "\(tokens)")
            #expect(try tokens.object()["authorization_details"] != nil, "\(tokens)")
            expectNoPageProblems(page)
        }
    }
}
