import DaybookCLI

await Daybook.start()
