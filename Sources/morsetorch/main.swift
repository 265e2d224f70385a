// The shipped executable: the tool, with the kernel's GPIO chips only.
import MorsetorchTool

ToolProcess.main()
