// The tool with simulated GPIO chips besides the kernel's: what the process tests run for
// `--gpio` on a temporary directory of chips (TemporaryGPIODirectory). Never shipped.
import MorseTestSupport
import MorsetorchTool

ToolProcess.main(gpioStandIn: SimulatedChips())
