// The `locemu` executable: everything is in LocEmuCommands.
import LocEmuCommands

await LocEmu.main()
