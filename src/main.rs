//! `ivd`: parse the command line, run, map errors to exit codes (0 ok, 1 failure, 2 bad input).

use clap::Parser;

fn main() {
    let cli = interview_doctor::cli::Cli::parse();
    let code = match interview_doctor::cli::run(cli) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {:#}", e.error);
            e.code
        }
    };
    std::process::exit(code);
}
