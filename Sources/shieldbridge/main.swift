import ShieldBridgeCLI

await ShieldBridgeCommand.main()
