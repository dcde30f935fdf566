// YAML for client config files (Continue). gray-matter already bundles js-yaml for frontmatter;
// its engine is reused here rather than adding a second YAML library. safeLoad/safeDump only:
// no custom tags, nothing in a config file can construct functions or run code.
import matter from 'gray-matter';

interface YamlEngine {
  parse: (text: string) => unknown;
  stringify: (value: unknown) => string;
}

const engine = (matter as unknown as { engines: { yaml: YamlEngine } }).engines.yaml;

export function yamlLoad(text: string): unknown {
  return engine.parse(text);
}

export function yamlDump(value: unknown): string {
  return engine.stringify(value);
}
