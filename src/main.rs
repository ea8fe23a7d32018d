use clap::Parser;

fn main() {
    let cli = kinrow::cli::Cli::parse();
    std::process::exit(kinrow::cli::run(cli));
}
