//! Files compiled into the binary (`include_dir!`, `include_str!`) are not all tracked by cargo: a
//! changed knowledge-base entry or graded answer must rebuild the crate.
fn main() {
    for dir in ["knowledge_base", "data/eval", "prompts"] {
        println!("cargo:rerun-if-changed={dir}");
    }
}
