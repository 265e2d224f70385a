import CWDaemonProtocol
import Testing

@Suite struct CWDaemonRequestTests {
  private func request(_ text: String) -> CWDaemonRequest { CWDaemonRequest(Array(text.utf8)) }

  @Test func plainTextIsTextToKey() {
    #expect(request("CQ TEST") == .text(CWDaemonText(Array("CQ TEST".utf8))))
  }

  @Test(arguments: ["Paris^\0", "Paris^\r\n", "Paris^\n\r\n", "Paris^"])
  func trailingNulAndLineEndsAreIgnored(datagram: String) {
    guard case .text(let text) = request(datagram) else {
      Issue.record("not text")
      return
    }
    #expect(text.bytes == Array("Paris".utf8))
    #expect(text.hasCaret)
    #expect(text.reply == Array("Paris\r\n".utf8))
  }

  @Test func aNulEndsTheRequest() {
    #expect(request("AB\0CD") == request("AB"))
  }

  @Test func onlyTheFirstCaretCountsAndWhatFollowsIsLost() {
    guard case .text(let text) = request("Fun^Joy^") else {
      Issue.record("not text")
      return
    }
    #expect(text.bytes == Array("Fun".utf8))
    #expect(text.reply == Array("Fun\r\n".utf8))
  }

  @Test func aLongerDatagramIsCutAt256BytesLosingItsCaret() {
    let long = String(repeating: "E", count: 256) + "^"
    guard case .text(let text) = request(long) else {
      Issue.record("not text")
      return
    }
    #expect(text.bytes.count == 256)
    #expect(!text.hasCaret)
    let fits = String(repeating: "E", count: 255) + "^"
    guard case .text(let fitting) = request(fits) else { return }
    #expect(fitting.hasCaret)
  }

  @Test func emptyAndLineEndOnlyDatagramsAreNothing() {
    #expect(request("") == .empty)
    #expect(request("\r\n") == .empty)
    #expect(request("\0ABC") == .empty)
  }

  @Test func escapeRequestsReadTheirValuesAsStrtolDoes() {
    #expect(request("\u{1B}2 8") == .speed(8))  // tlf's "%2u"
    #expect(request("\u{1B}224") == .speed(24))
    #expect(request("\u{1B}2+30") == .speed(30))
    #expect(request("\u{1B}2 30\r\n") == .speed(30))
    #expect(request("\u{1B}7-50") == .weighting(-50))
    #expect(request("\u{1B}30") == .tone(0))
    #expect(request("\u{1B}g100") == .volume(100))
    #expect(request("\u{1B}c10") == .tune(10))
    #expect(request("\u{1B}a1") == .ptt(true))
    #expect(request("\u{1B}a0") == .ptt(false))
    #expect(request("\u{1B}d80") == .pttDelay(50))
    #expect(request("\u{1B}fn") == .soundSystem("n"))
    #expect(request("\u{1B}8ttyS0") == .device("ttyS0"))
    #expect(request("\u{1B}0") == .reset)
    #expect(request("\u{1B}4") == .abort)
    #expect(request("\u{1B}5") == .exit)
    #expect(request("\u{1B}6") == .wordMode)
    #expect(request("\u{1B}hreply") == .reply(Array("reply".utf8)))
    #expect(request("\u{1B}h") == .reply([]))
    #expect(request("\u{1B}e3") == .ignored(code: UInt8(ascii: "e")))
  }

  @Test(arguments: [
    "\u{1B}2", "\u{1B}23", "\u{1B}261", "\u{1B}2 ", "\u{1B}2+", "\u{1B}220x",
    "\u{1B}299999999999999999999999", "\u{1B}c11", "\u{1B}c-1", "\u{1B}3-5", "\u{1B}74O1",
    "\u{1B}fx", "\u{1B}8", "\u{1B}Z", "\u{1B}", "\u{1B}d-3",
  ])
  func badValuesAndUnknownCodesAreIgnored(datagram: String) {
    guard case .invalid(let reason) = request(datagram) else {
      Issue.record("\(datagram.debugDescription) was taken: \(request(datagram))")
      return
    }
    #expect(!reason.isEmpty)
  }
}
