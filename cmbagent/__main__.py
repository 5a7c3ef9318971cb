from cmbagent.cli import main

main()
