//! The tool registry: type erasure behind one trait, schema validation of raw JSON arguments,
//! function-calling schemas, timing and audit of every call.

use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use schemars::generate::SchemaSettings;
use serde::Serialize;
use serde_json::{json, Value};

use super::{guarded, Envelope, ErrorCode, Tool, ToolContext, ToolError};

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A tool with its types erased.
trait ErasedTool: Send + Sync {
    fn name(&self) -> &'static str;
    fn setup(&self) -> super::Setup;
    fn description(&self) -> &'static str;
    fn parameters(&self) -> &Value;
    fn validate(&self, args: &Value) -> Vec<String>;
    fn call<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, Result<Value, ToolError>>;
}

struct Entry<T: Tool> {
    tool: T,
    parameters: Value,
    validator: Option<jsonschema::Validator>,
}

impl<T: Tool> ErasedTool for Entry<T> {
    fn name(&self) -> &'static str {
        T::NAME
    }
    fn setup(&self) -> super::Setup {
        T::SETUP
    }
    fn description(&self) -> &'static str {
        T::DESCRIPTION
    }
    fn parameters(&self) -> &Value {
        &self.parameters
    }
    fn validate(&self, args: &Value) -> Vec<String> {
        match &self.validator {
            Some(v) => v
                .iter_errors(args)
                .take(8)
                .map(|e| {
                    let at = e.instance_path().to_string();
                    if at.is_empty() {
                        e.to_string()
                    } else {
                        format!("{at}: {e}")
                    }
                })
                .collect(),
            None => Vec::new(),
        }
    }
    fn call<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move {
            let typed: T::Args = serde_json::from_value(args).map_err(|e| {
                ToolError::input(format!("invalid arguments: {e}"), "fix the arguments to match the tool's schema")
            })?;
            let out = self.tool.execute(typed, ctx).await?;
            serde_json::to_value(out)
                .map_err(|e| ToolError::service(format!("could not encode the result: {e}"), "report this as a bug"))
        })
    }
}

/// A tool's name, description and JSON schema, as listed and as sent for function calling.
#[derive(Debug, Clone, Serialize)]
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub parameters: Value,
}

#[derive(Default)]
pub struct ToolRegistry {
    tools: Vec<Box<dyn ErasedTool>>,
}

impl ToolRegistry {
    /// Every built-in tool.
    pub fn builtin() -> ToolRegistry {
        let mut r = ToolRegistry::default();
        r.register(super::read_file::ReadFile);
        r.register(super::parse_transcript::ParseTranscript);
        r.register(super::transcribe_audio::TranscribeAudio);
        r.register(super::detect_speakers::DetectSpeakers);
        r.register(super::split_qa_pairs::SplitQaPairs);
        r.register(super::suggest_roles::SuggestRoles);
        r.register(super::query_knowledge_base::QueryKnowledgeBase);
        r.register(super::analyze_content::AnalyzeContent);
        r.register(super::analyze_speech::AnalyzeSpeech);
        r.register(super::generate_report::GenerateReport);
        r.register(super::render_report::RenderReport);
        r
    }

    /// Add a tool; its schema is generated inline (no `$ref`), as function calling wants it.
    pub fn register<T: Tool>(&mut self, tool: T) {
        let generator = SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = true).into_generator();
        let schema = generator.into_root_schema_for::<T::Args>();
        let mut parameters = schema.to_value();
        if let Some(obj) = parameters.as_object_mut() {
            obj.remove("$schema");
            obj.remove("title");
        }
        // A schema that does not compile would be a bug in a tool's types; the tool then runs with
        // serde's own checks only rather than taking the whole registry down.
        let validator = jsonschema::validator_for(&parameters).ok();
        self.tools.retain(|t| t.name() != T::NAME);
        self.tools.push(Box::new(Entry { tool, parameters, validator }));
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.tools.iter().map(|t| t.name()).collect()
    }

    pub fn specs(&self) -> Vec<ToolSpec> {
        self.tools
            .iter()
            .map(|t| ToolSpec { name: t.name(), description: t.description(), parameters: t.parameters().clone() })
            .collect()
    }

    /// The tools in OpenAI's function-calling format.
    pub fn function_schemas(&self) -> Value {
        Value::Array(
            self.tools
                .iter()
                .map(|t| json!({"type": "function", "function": {"name": t.name(), "description": t.description(), "parameters": t.parameters()}}))
                .collect(),
        )
    }

    /// Validate raw JSON arguments, run the tool, and wrap the outcome. Never panics.
    pub async fn execute(&self, name: &str, args: Value, ctx: &ToolContext) -> Envelope {
        let started = Instant::now();
        let args_json = serde_json::to_vec(&args).unwrap_or_default();
        let result = match self.tools.iter().find(|t| t.name() == name) {
            None => Err(ToolError::new(
                ErrorCode::NotFound,
                format!("no tool named {name:?}"),
                format!("use one of: {}", self.names().join(", ")),
            )),
            Some(tool) => {
                let problems = tool.validate(&args);
                if problems.is_empty() {
                    match ctx.prepare(tool.setup()).await {
                        Ok(()) => {
                            let scoped = ctx.scoped();
                            let _stop = scoped.cancel.clone().drop_guard();
                            guarded(&scoped, tool.call(args, &scoped)).await
                        }
                        Err(e) => Err(e),
                    }
                } else {
                    Err(ToolError::input(
                        format!("arguments do not match the schema of {name}: {}", problems.join("; ")),
                        "fix the arguments and call again (see `ivd tools list --format json` for the schema)",
                    ))
                }
            }
        };
        let latency_ms = started.elapsed().as_millis() as u64;
        match result {
            Ok(data) => {
                ctx.audit_call("tool", name, "ok", started, &args_json);
                Envelope { ok: true, data: Some(data), error: None, latency_ms }
            }
            Err(e) => {
                ctx.audit_call("tool", name, e.code.as_str(), started, &args_json);
                Envelope { ok: false, data: None, error: Some(e), latency_ms }
            }
        }
    }
}
