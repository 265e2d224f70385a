import GPIODriver
import LinuxSystem

/// Formats GPIO chips and their lines as `morsetorch list --gpio` prints them.
enum GPIOTable {
  /// Per chip: a heading (`gpiochip0  pinctrl-bcm2711  58 lines`), then one aligned row per
  /// line: offset, name, direction, active-low, and who uses it.
  static func lines(for chips: [(GPIOChipFile.Info, [GPIOChipFile.LineInfo])]) -> [String] {
    chips.enumerated().flatMap { index, chip in
      let (info, lines) = chip
      let heading =
        "\(TerminalText.escaped(info.name))  \(TerminalText.escaped(info.label))  "
        + "\(info.lines) line\(info.lines == 1 ? "" : "s")"
      let header = ["  LINE", "NAME", "DIRECTION", "ACTIVE", "USED BY"]
      let rows = lines.map { line in
        [
          "  \(line.offset)", line.name.isEmpty ? "-" : TerminalText.escaped(line.name),
          line.flags.contains(.output) ? "output" : "input",
          line.flags.contains(.activeLow) ? "low" : "high",
          usedBy(line),
        ]
      }
      return (index == 0 ? [] : [""]) + [heading] + TextTable.aligned([header] + rows)
    }
  }

  private static func usedBy(_ line: GPIOChipFile.LineInfo) -> String {
    guard line.flags.contains(.used) else { return "-" }
    return line.consumer.isEmpty ? "(kernel)" : TerminalText.escaped(line.consumer)
  }
}
