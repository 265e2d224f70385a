import Foundation
import MorseCore
import MorseReceiving
import MorseTestSupport
import Testing

// `morsetorch receive --show`, as a process: refused without a terminal, and drawn in a
// real one (tmux).

@Suite("receive --show, as a process")
struct ReceiveShowTests {
  @Test func withoutATerminalShowIsAUsageErrorBeforeTheVideoIsOpened() throws {
    let leds = try TemporaryLEDDirectory()
    // The file does not exist: opened, it would be status 66.
    let outcome = try MorsetorchProcess.run(
      ["receive", "--video", "/nonexistent/video.y4m", "--show"], ledsDirectory: leds.ledsPath)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(
      outcome.standardError.contains("--show needs standard error on a terminal"), "\(outcome)")
  }

  @Test(.enabled(if: TerminalSession.isAvailable))
  func theLightIsBoxedInTheLiveViewAndTheScreenKeepsTheTextAtTheEnd() throws {
    let directory = try TemporaryDirectory("morsetorch-show")
    let fifo = directory.path + "/video"
    try #require(mkfifo(fifo, 0o600) == 0)
    let scene = SyntheticScene()  // 160x120, the light at 100,40
    let edges = MorseEdge.edges(
      of: MorseSteps(try MorseMessage("SOS"), timing: try MorseTiming(wordsPerMinute: 15)))
    let video = Y4MWriting.bytes(of: scene.frames(showing: edges))
    let executable = try MorsetorchProcess.executablePath()
    let terminal = TerminalSession(
      "env -i PATH=/usr/bin:/bin TERM=xterm-256color COLORTERM=truecolor \(executable) "
        + "receive --video \(fifo) --show; echo \"exit $?\"; sleep 600",
      columns: 100, rows: 40)
    // Opened once the receiver has opened it to read; held open until the view is seen.
    var writer: Int32 = -1
    #expect(
      eventually {
        writer = open(fifo, O_WRONLY | O_NONBLOCK)
        return writer >= 0
      })
    try #require(writer >= 0)
    _ = fcntl(writer, F_SETFL, 0)
    let written = video.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
    #expect(written == video.count)
    var screen = ""
    let isBoxed = eventually(within: .seconds(30)) {
      screen = terminal.screen()
      // Held back until the line ends, as the reading would give it now.
      return screen.contains("┘") && screen.contains("read: (SOS)")
    }
    #expect(isBoxed, "\(screen)")
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
    let found = try #require(
      screen.firstMatch(of: /light found at (\d+),(\d+) \((\d+)x(\d+)\)/), "\(screen)")
    let (x, y, width, height) = try (
      #require(Int(found.1)), #require(Int(found.2)), #require(Int(found.3)),
      #require(Int(found.4))
    )
    // The picture's first line is the first of its cells; a cell is `scale` pixels across.
    let top = try #require(lines.firstIndex { $0.first == "▀" || $0.first == "┌" }, "\(screen)")
    let scale = scene.width / lines[top].count
    #expect(scale == 2 && lines[top].count == 80, "\(screen)")
    let (left, right) = (x / scale - 1, (x + width - 1) / scale + 1)
    let (upper, lower) = (top + y / scale / 2 - 1, top + (y + height - 1) / scale / 2 + 1)
    #expect(lines[upper][left] == "┌" && lines[upper][right] == "┐", "\(screen)")
    #expect(lines[lower][left] == "└" && lines[lower][right] == "┘", "\(screen)")
    // Drawn in 24-bit greys.
    #expect(terminal.screen(withEscapes: true).contains("38;2;"))
    close(writer)
    let ended = eventually(within: .seconds(30)) {
      screen = terminal.screen()
      return screen.contains("exit 0")
    }
    #expect(ended, "\(screen)")
    // The notes and the text, and nothing of the picture.
    #expect(screen.split(separator: "\n").contains("SOS"), "\(screen)")
    #expect(
      !screen.contains("▀") && !screen.contains("┘") && !screen.contains("read:"), "\(screen)")
  }
}
