from hexwar.cli import run

run()
