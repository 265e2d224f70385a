/// The text operands joined by spaces, or nil for standard input (none, or a lone "-").
func textOperand(_ operands: [String], command: String) throws(UsageError) -> String? {
  guard !operands.isEmpty, operands != ["-"] else { return nil }
  let text = operands.joined(separator: " ")
  guard text.contains(where: { !$0.isWhitespace }) else { throw .emptyText(command: command) }
  return text
}
