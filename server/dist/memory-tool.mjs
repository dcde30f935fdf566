import { createRequire as __cairnCreateRequire, isBuiltin as __cairnIsBuiltin } from 'node:module';
const __cairnRequire = __cairnCreateRequire(import.meta.url);
const require = (id) => {
  if (!__cairnIsBuiltin(id)) throw new Error(`cairn loads no module from outside its bundle (asked for ${id})`);
  return __cairnRequire(id);
};
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __require = /* @__PURE__ */ ((x) => typeof require !== "undefined" ? require : typeof Proxy !== "undefined" ? new Proxy(x, {
  get: (a, b) => (typeof require !== "undefined" ? require : a)[b]
}) : x)(function(x) {
  if (typeof require !== "undefined") return require.apply(this, arguments);
  throw Error('Dynamic require of "' + x + '" is not supported');
});
var __commonJS = (cb, mod) => function __require2() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// node_modules/kind-of/index.js
var require_kind_of = __commonJS({
  "node_modules/kind-of/index.js"(exports2, module2) {
    var toString = Object.prototype.toString;
    module2.exports = function kindOf(val) {
      if (val === void 0) return "undefined";
      if (val === null) return "null";
      var type = typeof val;
      if (type === "boolean") return "boolean";
      if (type === "string") return "string";
      if (type === "number") return "number";
      if (type === "symbol") return "symbol";
      if (type === "function") {
        return isGeneratorFn(val) ? "generatorfunction" : "function";
      }
      if (isArray(val)) return "array";
      if (isBuffer(val)) return "buffer";
      if (isArguments(val)) return "arguments";
      if (isDate(val)) return "date";
      if (isError(val)) return "error";
      if (isRegexp(val)) return "regexp";
      switch (ctorName(val)) {
        case "Symbol":
          return "symbol";
        case "Promise":
          return "promise";
        // Set, Map, WeakSet, WeakMap
        case "WeakMap":
          return "weakmap";
        case "WeakSet":
          return "weakset";
        case "Map":
          return "map";
        case "Set":
          return "set";
        // 8-bit typed arrays
        case "Int8Array":
          return "int8array";
        case "Uint8Array":
          return "uint8array";
        case "Uint8ClampedArray":
          return "uint8clampedarray";
        // 16-bit typed arrays
        case "Int16Array":
          return "int16array";
        case "Uint16Array":
          return "uint16array";
        // 32-bit typed arrays
        case "Int32Array":
          return "int32array";
        case "Uint32Array":
          return "uint32array";
        case "Float32Array":
          return "float32array";
        case "Float64Array":
          return "float64array";
      }
      if (isGeneratorObj(val)) {
        return "generator";
      }
      type = toString.call(val);
      switch (type) {
        case "[object Object]":
          return "object";
        // iterators
        case "[object Map Iterator]":
          return "mapiterator";
        case "[object Set Iterator]":
          return "setiterator";
        case "[object String Iterator]":
          return "stringiterator";
        case "[object Array Iterator]":
          return "arrayiterator";
      }
      return type.slice(8, -1).toLowerCase().replace(/\s/g, "");
    };
    function ctorName(val) {
      return typeof val.constructor === "function" ? val.constructor.name : null;
    }
    function isArray(val) {
      if (Array.isArray) return Array.isArray(val);
      return val instanceof Array;
    }
    function isError(val) {
      return val instanceof Error || typeof val.message === "string" && val.constructor && typeof val.constructor.stackTraceLimit === "number";
    }
    function isDate(val) {
      if (val instanceof Date) return true;
      return typeof val.toDateString === "function" && typeof val.getDate === "function" && typeof val.setDate === "function";
    }
    function isRegexp(val) {
      if (val instanceof RegExp) return true;
      return typeof val.flags === "string" && typeof val.ignoreCase === "boolean" && typeof val.multiline === "boolean" && typeof val.global === "boolean";
    }
    function isGeneratorFn(name, val) {
      return ctorName(name) === "GeneratorFunction";
    }
    function isGeneratorObj(val) {
      return typeof val.throw === "function" && typeof val.return === "function" && typeof val.next === "function";
    }
    function isArguments(val) {
      try {
        if (typeof val.length === "number" && typeof val.callee === "function") {
          return true;
        }
      } catch (err) {
        if (err.message.indexOf("callee") !== -1) {
          return true;
        }
      }
      return false;
    }
    function isBuffer(val) {
      if (val.constructor && typeof val.constructor.isBuffer === "function") {
        return val.constructor.isBuffer(val);
      }
      return false;
    }
  }
});

// node_modules/is-extendable/index.js
var require_is_extendable = __commonJS({
  "node_modules/is-extendable/index.js"(exports2, module2) {
    "use strict";
    module2.exports = function isExtendable(val) {
      return typeof val !== "undefined" && val !== null && (typeof val === "object" || typeof val === "function");
    };
  }
});

// node_modules/extend-shallow/index.js
var require_extend_shallow = __commonJS({
  "node_modules/extend-shallow/index.js"(exports2, module2) {
    "use strict";
    var isObject = require_is_extendable();
    module2.exports = function extend(o) {
      if (!isObject(o)) {
        o = {};
      }
      var len = arguments.length;
      for (var i = 1; i < len; i++) {
        var obj = arguments[i];
        if (isObject(obj)) {
          assign(o, obj);
        }
      }
      return o;
    };
    function assign(a, b) {
      for (var key in b) {
        if (hasOwn(b, key)) {
          a[key] = b[key];
        }
      }
    }
    function hasOwn(obj, key) {
      return Object.prototype.hasOwnProperty.call(obj, key);
    }
  }
});

// node_modules/section-matter/index.js
var require_section_matter = __commonJS({
  "node_modules/section-matter/index.js"(exports2, module2) {
    "use strict";
    var typeOf = require_kind_of();
    var extend = require_extend_shallow();
    module2.exports = function(input, options2) {
      if (typeof options2 === "function") {
        options2 = { parse: options2 };
      }
      var file = toObject(input);
      var defaults = { section_delimiter: "---", parse: identity };
      var opts = extend({}, defaults, options2);
      var delim = opts.section_delimiter;
      var lines = file.content.split(/\r?\n/);
      var sections = null;
      var section3 = createSection();
      var content = [];
      var stack = [];
      function initSections(val) {
        file.content = val;
        sections = [];
        content = [];
      }
      function closeSection(val) {
        if (stack.length) {
          section3.key = getKey(stack[0], delim);
          section3.content = val;
          opts.parse(section3, sections);
          sections.push(section3);
          section3 = createSection();
          content = [];
          stack = [];
        }
      }
      for (var i = 0; i < lines.length; i++) {
        var line = lines[i];
        var len = stack.length;
        var ln = line.trim();
        if (isDelimiter(ln, delim)) {
          if (ln.length === 3 && i !== 0) {
            if (len === 0 || len === 2) {
              content.push(line);
              continue;
            }
            stack.push(ln);
            section3.data = content.join("\n");
            content = [];
            continue;
          }
          if (sections === null) {
            initSections(content.join("\n"));
          }
          if (len === 2) {
            closeSection(content.join("\n"));
          }
          stack.push(ln);
          continue;
        }
        content.push(line);
      }
      if (sections === null) {
        initSections(content.join("\n"));
      } else {
        closeSection(content.join("\n"));
      }
      file.sections = sections;
      return file;
    };
    function isDelimiter(line, delim) {
      if (line.slice(0, delim.length) !== delim) {
        return false;
      }
      if (line.charAt(delim.length + 1) === delim.slice(-1)) {
        return false;
      }
      return true;
    }
    function toObject(input) {
      if (typeOf(input) !== "object") {
        input = { content: input };
      }
      if (typeof input.content !== "string" && !isBuffer(input.content)) {
        throw new TypeError("expected a buffer or string");
      }
      input.content = input.content.toString();
      input.sections = [];
      return input;
    }
    function getKey(val, delim) {
      return val ? val.slice(delim.length).trim() : "";
    }
    function createSection() {
      return { key: "", data: "", content: "" };
    }
    function identity(val) {
      return val;
    }
    function isBuffer(val) {
      if (val && val.constructor && typeof val.constructor.isBuffer === "function") {
        return val.constructor.isBuffer(val);
      }
      return false;
    }
  }
});

// node_modules/js-yaml/lib/js-yaml/common.js
var require_common = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/common.js"(exports2, module2) {
    "use strict";
    function isNothing(subject) {
      return typeof subject === "undefined" || subject === null;
    }
    function isObject(subject) {
      return typeof subject === "object" && subject !== null;
    }
    function toArray(sequence) {
      if (Array.isArray(sequence)) return sequence;
      else if (isNothing(sequence)) return [];
      return [sequence];
    }
    function extend(target, source) {
      var index, length, key, sourceKeys;
      if (source) {
        sourceKeys = Object.keys(source);
        for (index = 0, length = sourceKeys.length; index < length; index += 1) {
          key = sourceKeys[index];
          target[key] = source[key];
        }
      }
      return target;
    }
    function repeat(string, count) {
      var result = "", cycle;
      for (cycle = 0; cycle < count; cycle += 1) {
        result += string;
      }
      return result;
    }
    function isNegativeZero(number) {
      return number === 0 && Number.NEGATIVE_INFINITY === 1 / number;
    }
    module2.exports.isNothing = isNothing;
    module2.exports.isObject = isObject;
    module2.exports.toArray = toArray;
    module2.exports.repeat = repeat;
    module2.exports.isNegativeZero = isNegativeZero;
    module2.exports.extend = extend;
  }
});

// node_modules/js-yaml/lib/js-yaml/exception.js
var require_exception = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/exception.js"(exports2, module2) {
    "use strict";
    function YAMLException(reason, mark) {
      Error.call(this);
      this.name = "YAMLException";
      this.reason = reason;
      this.mark = mark;
      this.message = (this.reason || "(unknown reason)") + (this.mark ? " " + this.mark.toString() : "");
      if (Error.captureStackTrace) {
        Error.captureStackTrace(this, this.constructor);
      } else {
        this.stack = new Error().stack || "";
      }
    }
    YAMLException.prototype = Object.create(Error.prototype);
    YAMLException.prototype.constructor = YAMLException;
    YAMLException.prototype.toString = function toString(compact) {
      var result = this.name + ": ";
      result += this.reason || "(unknown reason)";
      if (!compact && this.mark) {
        result += " " + this.mark.toString();
      }
      return result;
    };
    module2.exports = YAMLException;
  }
});

// node_modules/js-yaml/lib/js-yaml/mark.js
var require_mark = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/mark.js"(exports2, module2) {
    "use strict";
    var common = require_common();
    function Mark(name, buffer, position, line, column) {
      this.name = name;
      this.buffer = buffer;
      this.position = position;
      this.line = line;
      this.column = column;
    }
    Mark.prototype.getSnippet = function getSnippet(indent, maxLength) {
      var head, start, tail, end, snippet;
      if (!this.buffer) return null;
      indent = indent || 4;
      maxLength = maxLength || 75;
      head = "";
      start = this.position;
      while (start > 0 && "\0\r\n\u2028\u2029".indexOf(this.buffer.charAt(start - 1)) === -1) {
        start -= 1;
        if (this.position - start > maxLength / 2 - 1) {
          head = " ... ";
          start += 5;
          break;
        }
      }
      tail = "";
      end = this.position;
      while (end < this.buffer.length && "\0\r\n\u2028\u2029".indexOf(this.buffer.charAt(end)) === -1) {
        end += 1;
        if (end - this.position > maxLength / 2 - 1) {
          tail = " ... ";
          end -= 5;
          break;
        }
      }
      snippet = this.buffer.slice(start, end);
      return common.repeat(" ", indent) + head + snippet + tail + "\n" + common.repeat(" ", indent + this.position - start + head.length) + "^";
    };
    Mark.prototype.toString = function toString(compact) {
      var snippet, where = "";
      if (this.name) {
        where += 'in "' + this.name + '" ';
      }
      where += "at line " + (this.line + 1) + ", column " + (this.column + 1);
      if (!compact) {
        snippet = this.getSnippet();
        if (snippet) {
          where += ":\n" + snippet;
        }
      }
      return where;
    };
    module2.exports = Mark;
  }
});

// node_modules/js-yaml/lib/js-yaml/type.js
var require_type = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type.js"(exports2, module2) {
    "use strict";
    var YAMLException = require_exception();
    var TYPE_CONSTRUCTOR_OPTIONS = [
      "kind",
      "resolve",
      "construct",
      "instanceOf",
      "predicate",
      "represent",
      "defaultStyle",
      "styleAliases"
    ];
    var YAML_NODE_KINDS = [
      "scalar",
      "sequence",
      "mapping"
    ];
    function compileStyleAliases(map) {
      var result = {};
      if (map !== null) {
        Object.keys(map).forEach(function(style) {
          map[style].forEach(function(alias) {
            result[String(alias)] = style;
          });
        });
      }
      return result;
    }
    function Type(tag, options2) {
      options2 = options2 || {};
      Object.keys(options2).forEach(function(name) {
        if (TYPE_CONSTRUCTOR_OPTIONS.indexOf(name) === -1) {
          throw new YAMLException('Unknown option "' + name + '" is met in definition of "' + tag + '" YAML type.');
        }
      });
      this.tag = tag;
      this.kind = options2["kind"] || null;
      this.resolve = options2["resolve"] || function() {
        return true;
      };
      this.construct = options2["construct"] || function(data) {
        return data;
      };
      this.instanceOf = options2["instanceOf"] || null;
      this.predicate = options2["predicate"] || null;
      this.represent = options2["represent"] || null;
      this.defaultStyle = options2["defaultStyle"] || null;
      this.styleAliases = compileStyleAliases(options2["styleAliases"] || null);
      if (YAML_NODE_KINDS.indexOf(this.kind) === -1) {
        throw new YAMLException('Unknown kind "' + this.kind + '" is specified for "' + tag + '" YAML type.');
      }
    }
    module2.exports = Type;
  }
});

// node_modules/js-yaml/lib/js-yaml/schema.js
var require_schema = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/schema.js"(exports2, module2) {
    "use strict";
    var common = require_common();
    var YAMLException = require_exception();
    var Type = require_type();
    function compileList(schema, name, result) {
      var exclude = [];
      schema.include.forEach(function(includedSchema) {
        result = compileList(includedSchema, name, result);
      });
      schema[name].forEach(function(currentType) {
        result.forEach(function(previousType, previousIndex) {
          if (previousType.tag === currentType.tag && previousType.kind === currentType.kind) {
            exclude.push(previousIndex);
          }
        });
        result.push(currentType);
      });
      return result.filter(function(type, index) {
        return exclude.indexOf(index) === -1;
      });
    }
    function compileMap() {
      var result = {
        scalar: {},
        sequence: {},
        mapping: {},
        fallback: {}
      }, index, length;
      function collectType(type) {
        result[type.kind][type.tag] = result["fallback"][type.tag] = type;
      }
      for (index = 0, length = arguments.length; index < length; index += 1) {
        arguments[index].forEach(collectType);
      }
      return result;
    }
    function Schema(definition) {
      this.include = definition.include || [];
      this.implicit = definition.implicit || [];
      this.explicit = definition.explicit || [];
      this.implicit.forEach(function(type) {
        if (type.loadKind && type.loadKind !== "scalar") {
          throw new YAMLException("There is a non-scalar type in the implicit list of a schema. Implicit resolving of such types is not supported.");
        }
      });
      this.compiledImplicit = compileList(this, "implicit", []);
      this.compiledExplicit = compileList(this, "explicit", []);
      this.compiledTypeMap = compileMap(this.compiledImplicit, this.compiledExplicit);
    }
    Schema.DEFAULT = null;
    Schema.create = function createSchema() {
      var schemas, types;
      switch (arguments.length) {
        case 1:
          schemas = Schema.DEFAULT;
          types = arguments[0];
          break;
        case 2:
          schemas = arguments[0];
          types = arguments[1];
          break;
        default:
          throw new YAMLException("Wrong number of arguments for Schema.create function");
      }
      schemas = common.toArray(schemas);
      types = common.toArray(types);
      if (!schemas.every(function(schema) {
        return schema instanceof Schema;
      })) {
        throw new YAMLException("Specified list of super schemas (or a single Schema object) contains a non-Schema object.");
      }
      if (!types.every(function(type) {
        return type instanceof Type;
      })) {
        throw new YAMLException("Specified list of YAML types (or a single Type object) contains a non-Type object.");
      }
      return new Schema({
        include: schemas,
        explicit: types
      });
    };
    module2.exports = Schema;
  }
});

// node_modules/js-yaml/lib/js-yaml/type/str.js
var require_str = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/str.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    module2.exports = new Type("tag:yaml.org,2002:str", {
      kind: "scalar",
      construct: function(data) {
        return data !== null ? data : "";
      }
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/seq.js
var require_seq = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/seq.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    module2.exports = new Type("tag:yaml.org,2002:seq", {
      kind: "sequence",
      construct: function(data) {
        return data !== null ? data : [];
      }
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/map.js
var require_map = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/map.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    module2.exports = new Type("tag:yaml.org,2002:map", {
      kind: "mapping",
      construct: function(data) {
        return data !== null ? data : {};
      }
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/schema/failsafe.js
var require_failsafe = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/schema/failsafe.js"(exports2, module2) {
    "use strict";
    var Schema = require_schema();
    module2.exports = new Schema({
      explicit: [
        require_str(),
        require_seq(),
        require_map()
      ]
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/null.js
var require_null = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/null.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    function resolveYamlNull(data) {
      if (data === null) return true;
      var max = data.length;
      return max === 1 && data === "~" || max === 4 && (data === "null" || data === "Null" || data === "NULL");
    }
    function constructYamlNull() {
      return null;
    }
    function isNull(object) {
      return object === null;
    }
    module2.exports = new Type("tag:yaml.org,2002:null", {
      kind: "scalar",
      resolve: resolveYamlNull,
      construct: constructYamlNull,
      predicate: isNull,
      represent: {
        canonical: function() {
          return "~";
        },
        lowercase: function() {
          return "null";
        },
        uppercase: function() {
          return "NULL";
        },
        camelcase: function() {
          return "Null";
        }
      },
      defaultStyle: "lowercase"
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/bool.js
var require_bool = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/bool.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    function resolveYamlBoolean(data) {
      if (data === null) return false;
      var max = data.length;
      return max === 4 && (data === "true" || data === "True" || data === "TRUE") || max === 5 && (data === "false" || data === "False" || data === "FALSE");
    }
    function constructYamlBoolean(data) {
      return data === "true" || data === "True" || data === "TRUE";
    }
    function isBoolean(object) {
      return Object.prototype.toString.call(object) === "[object Boolean]";
    }
    module2.exports = new Type("tag:yaml.org,2002:bool", {
      kind: "scalar",
      resolve: resolveYamlBoolean,
      construct: constructYamlBoolean,
      predicate: isBoolean,
      represent: {
        lowercase: function(object) {
          return object ? "true" : "false";
        },
        uppercase: function(object) {
          return object ? "TRUE" : "FALSE";
        },
        camelcase: function(object) {
          return object ? "True" : "False";
        }
      },
      defaultStyle: "lowercase"
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/int.js
var require_int = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/int.js"(exports2, module2) {
    "use strict";
    var common = require_common();
    var Type = require_type();
    function isHexCode(c) {
      return 48 <= c && c <= 57 || 65 <= c && c <= 70 || 97 <= c && c <= 102;
    }
    function isOctCode(c) {
      return 48 <= c && c <= 55;
    }
    function isDecCode(c) {
      return 48 <= c && c <= 57;
    }
    function resolveYamlInteger(data) {
      if (data === null) return false;
      var max = data.length, index = 0, hasDigits = false, ch;
      if (!max) return false;
      ch = data[index];
      if (ch === "-" || ch === "+") {
        ch = data[++index];
      }
      if (ch === "0") {
        if (index + 1 === max) return true;
        ch = data[++index];
        if (ch === "b") {
          index++;
          for (; index < max; index++) {
            ch = data[index];
            if (ch === "_") continue;
            if (ch !== "0" && ch !== "1") return false;
            hasDigits = true;
          }
          return hasDigits && ch !== "_";
        }
        if (ch === "x") {
          index++;
          for (; index < max; index++) {
            ch = data[index];
            if (ch === "_") continue;
            if (!isHexCode(data.charCodeAt(index))) return false;
            hasDigits = true;
          }
          return hasDigits && ch !== "_";
        }
        for (; index < max; index++) {
          ch = data[index];
          if (ch === "_") continue;
          if (!isOctCode(data.charCodeAt(index))) return false;
          hasDigits = true;
        }
        return hasDigits && ch !== "_";
      }
      if (ch === "_") return false;
      for (; index < max; index++) {
        ch = data[index];
        if (ch === "_") continue;
        if (ch === ":") break;
        if (!isDecCode(data.charCodeAt(index))) {
          return false;
        }
        hasDigits = true;
      }
      if (!hasDigits || ch === "_") return false;
      if (ch !== ":") return true;
      return /^(:[0-5]?[0-9])+$/.test(data.slice(index));
    }
    function constructYamlInteger(data) {
      var value = data, sign = 1, ch, base, digits = [];
      if (value.indexOf("_") !== -1) {
        value = value.replace(/_/g, "");
      }
      ch = value[0];
      if (ch === "-" || ch === "+") {
        if (ch === "-") sign = -1;
        value = value.slice(1);
        ch = value[0];
      }
      if (value === "0") return 0;
      if (ch === "0") {
        if (value[1] === "b") return sign * parseInt(value.slice(2), 2);
        if (value[1] === "x") return sign * parseInt(value, 16);
        return sign * parseInt(value, 8);
      }
      if (value.indexOf(":") !== -1) {
        value.split(":").forEach(function(v) {
          digits.unshift(parseInt(v, 10));
        });
        value = 0;
        base = 1;
        digits.forEach(function(d) {
          value += d * base;
          base *= 60;
        });
        return sign * value;
      }
      return sign * parseInt(value, 10);
    }
    function isInteger(object) {
      return Object.prototype.toString.call(object) === "[object Number]" && (object % 1 === 0 && !common.isNegativeZero(object));
    }
    module2.exports = new Type("tag:yaml.org,2002:int", {
      kind: "scalar",
      resolve: resolveYamlInteger,
      construct: constructYamlInteger,
      predicate: isInteger,
      represent: {
        binary: function(obj) {
          return obj >= 0 ? "0b" + obj.toString(2) : "-0b" + obj.toString(2).slice(1);
        },
        octal: function(obj) {
          return obj >= 0 ? "0" + obj.toString(8) : "-0" + obj.toString(8).slice(1);
        },
        decimal: function(obj) {
          return obj.toString(10);
        },
        /* eslint-disable max-len */
        hexadecimal: function(obj) {
          return obj >= 0 ? "0x" + obj.toString(16).toUpperCase() : "-0x" + obj.toString(16).toUpperCase().slice(1);
        }
      },
      defaultStyle: "decimal",
      styleAliases: {
        binary: [2, "bin"],
        octal: [8, "oct"],
        decimal: [10, "dec"],
        hexadecimal: [16, "hex"]
      }
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/float.js
var require_float = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/float.js"(exports2, module2) {
    "use strict";
    var common = require_common();
    var Type = require_type();
    var YAML_FLOAT_PATTERN = new RegExp(
      // 2.5e4, 2.5 and integers
      "^(?:[-+]?(?:0|[1-9][0-9_]*)(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"
    );
    function resolveYamlFloat(data) {
      if (data === null) return false;
      if (!YAML_FLOAT_PATTERN.test(data) || // Quick hack to not allow integers end with `_`
      // Probably should update regexp & check speed
      data[data.length - 1] === "_") {
        return false;
      }
      return true;
    }
    function constructYamlFloat(data) {
      var value, sign, base, digits;
      value = data.replace(/_/g, "").toLowerCase();
      sign = value[0] === "-" ? -1 : 1;
      digits = [];
      if ("+-".indexOf(value[0]) >= 0) {
        value = value.slice(1);
      }
      if (value === ".inf") {
        return sign === 1 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
      } else if (value === ".nan") {
        return NaN;
      } else if (value.indexOf(":") >= 0) {
        value.split(":").forEach(function(v) {
          digits.unshift(parseFloat(v, 10));
        });
        value = 0;
        base = 1;
        digits.forEach(function(d) {
          value += d * base;
          base *= 60;
        });
        return sign * value;
      }
      return sign * parseFloat(value, 10);
    }
    var SCIENTIFIC_WITHOUT_DOT = /^[-+]?[0-9]+e/;
    function representYamlFloat(object, style) {
      var res;
      if (isNaN(object)) {
        switch (style) {
          case "lowercase":
            return ".nan";
          case "uppercase":
            return ".NAN";
          case "camelcase":
            return ".NaN";
        }
      } else if (Number.POSITIVE_INFINITY === object) {
        switch (style) {
          case "lowercase":
            return ".inf";
          case "uppercase":
            return ".INF";
          case "camelcase":
            return ".Inf";
        }
      } else if (Number.NEGATIVE_INFINITY === object) {
        switch (style) {
          case "lowercase":
            return "-.inf";
          case "uppercase":
            return "-.INF";
          case "camelcase":
            return "-.Inf";
        }
      } else if (common.isNegativeZero(object)) {
        return "-0.0";
      }
      res = object.toString(10);
      return SCIENTIFIC_WITHOUT_DOT.test(res) ? res.replace("e", ".e") : res;
    }
    function isFloat(object) {
      return Object.prototype.toString.call(object) === "[object Number]" && (object % 1 !== 0 || common.isNegativeZero(object));
    }
    module2.exports = new Type("tag:yaml.org,2002:float", {
      kind: "scalar",
      resolve: resolveYamlFloat,
      construct: constructYamlFloat,
      predicate: isFloat,
      represent: representYamlFloat,
      defaultStyle: "lowercase"
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/schema/json.js
var require_json = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/schema/json.js"(exports2, module2) {
    "use strict";
    var Schema = require_schema();
    module2.exports = new Schema({
      include: [
        require_failsafe()
      ],
      implicit: [
        require_null(),
        require_bool(),
        require_int(),
        require_float()
      ]
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/schema/core.js
var require_core = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/schema/core.js"(exports2, module2) {
    "use strict";
    var Schema = require_schema();
    module2.exports = new Schema({
      include: [
        require_json()
      ]
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/timestamp.js
var require_timestamp = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/timestamp.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    var YAML_DATE_REGEXP = new RegExp(
      "^([0-9][0-9][0-9][0-9])-([0-9][0-9])-([0-9][0-9])$"
    );
    var YAML_TIMESTAMP_REGEXP = new RegExp(
      "^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \\t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\\.([0-9]*))?(?:[ \\t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?$"
    );
    function resolveYamlTimestamp(data) {
      if (data === null) return false;
      if (YAML_DATE_REGEXP.exec(data) !== null) return true;
      if (YAML_TIMESTAMP_REGEXP.exec(data) !== null) return true;
      return false;
    }
    function constructYamlTimestamp(data) {
      var match, year, month, day2, hour, minute, second, fraction = 0, delta = null, tz_hour, tz_minute, date;
      match = YAML_DATE_REGEXP.exec(data);
      if (match === null) match = YAML_TIMESTAMP_REGEXP.exec(data);
      if (match === null) throw new Error("Date resolve error");
      year = +match[1];
      month = +match[2] - 1;
      day2 = +match[3];
      if (!match[4]) {
        return new Date(Date.UTC(year, month, day2));
      }
      hour = +match[4];
      minute = +match[5];
      second = +match[6];
      if (match[7]) {
        fraction = match[7].slice(0, 3);
        while (fraction.length < 3) {
          fraction += "0";
        }
        fraction = +fraction;
      }
      if (match[9]) {
        tz_hour = +match[10];
        tz_minute = +(match[11] || 0);
        delta = (tz_hour * 60 + tz_minute) * 6e4;
        if (match[9] === "-") delta = -delta;
      }
      date = new Date(Date.UTC(year, month, day2, hour, minute, second, fraction));
      if (delta) date.setTime(date.getTime() - delta);
      return date;
    }
    function representYamlTimestamp(object) {
      return object.toISOString();
    }
    module2.exports = new Type("tag:yaml.org,2002:timestamp", {
      kind: "scalar",
      resolve: resolveYamlTimestamp,
      construct: constructYamlTimestamp,
      instanceOf: Date,
      represent: representYamlTimestamp
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/merge.js
var require_merge = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/merge.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    function resolveYamlMerge(data) {
      return data === "<<" || data === null;
    }
    module2.exports = new Type("tag:yaml.org,2002:merge", {
      kind: "scalar",
      resolve: resolveYamlMerge
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/binary.js
var require_binary = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/binary.js"(exports2, module2) {
    "use strict";
    var NodeBuffer;
    try {
      _require = __require;
      NodeBuffer = _require("buffer").Buffer;
    } catch (__) {
    }
    var _require;
    var Type = require_type();
    var BASE64_MAP = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n\r";
    function resolveYamlBinary(data) {
      if (data === null) return false;
      var code, idx, bitlen = 0, max = data.length, map = BASE64_MAP;
      for (idx = 0; idx < max; idx++) {
        code = map.indexOf(data.charAt(idx));
        if (code > 64) continue;
        if (code < 0) return false;
        bitlen += 6;
      }
      return bitlen % 8 === 0;
    }
    function constructYamlBinary(data) {
      var idx, tailbits, input = data.replace(/[\r\n=]/g, ""), max = input.length, map = BASE64_MAP, bits = 0, result = [];
      for (idx = 0; idx < max; idx++) {
        if (idx % 4 === 0 && idx) {
          result.push(bits >> 16 & 255);
          result.push(bits >> 8 & 255);
          result.push(bits & 255);
        }
        bits = bits << 6 | map.indexOf(input.charAt(idx));
      }
      tailbits = max % 4 * 6;
      if (tailbits === 0) {
        result.push(bits >> 16 & 255);
        result.push(bits >> 8 & 255);
        result.push(bits & 255);
      } else if (tailbits === 18) {
        result.push(bits >> 10 & 255);
        result.push(bits >> 2 & 255);
      } else if (tailbits === 12) {
        result.push(bits >> 4 & 255);
      }
      if (NodeBuffer) {
        return NodeBuffer.from ? NodeBuffer.from(result) : new NodeBuffer(result);
      }
      return result;
    }
    function representYamlBinary(object) {
      var result = "", bits = 0, idx, tail, max = object.length, map = BASE64_MAP;
      for (idx = 0; idx < max; idx++) {
        if (idx % 3 === 0 && idx) {
          result += map[bits >> 18 & 63];
          result += map[bits >> 12 & 63];
          result += map[bits >> 6 & 63];
          result += map[bits & 63];
        }
        bits = (bits << 8) + object[idx];
      }
      tail = max % 3;
      if (tail === 0) {
        result += map[bits >> 18 & 63];
        result += map[bits >> 12 & 63];
        result += map[bits >> 6 & 63];
        result += map[bits & 63];
      } else if (tail === 2) {
        result += map[bits >> 10 & 63];
        result += map[bits >> 4 & 63];
        result += map[bits << 2 & 63];
        result += map[64];
      } else if (tail === 1) {
        result += map[bits >> 2 & 63];
        result += map[bits << 4 & 63];
        result += map[64];
        result += map[64];
      }
      return result;
    }
    function isBinary(object) {
      return NodeBuffer && NodeBuffer.isBuffer(object);
    }
    module2.exports = new Type("tag:yaml.org,2002:binary", {
      kind: "scalar",
      resolve: resolveYamlBinary,
      construct: constructYamlBinary,
      predicate: isBinary,
      represent: representYamlBinary
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/omap.js
var require_omap = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/omap.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    var _hasOwnProperty = Object.prototype.hasOwnProperty;
    var _toString = Object.prototype.toString;
    function resolveYamlOmap(data) {
      if (data === null) return true;
      var objectKeys = {}, index, length, pair, pairKey, pairHasKey, object = data;
      for (index = 0, length = object.length; index < length; index += 1) {
        pair = object[index];
        pairHasKey = false;
        if (_toString.call(pair) !== "[object Object]") return false;
        for (pairKey in pair) {
          if (_hasOwnProperty.call(pair, pairKey)) {
            if (!pairHasKey) pairHasKey = true;
            else return false;
          }
        }
        if (!pairHasKey) return false;
        if (_hasOwnProperty.call(objectKeys, pairKey)) return false;
        Object.defineProperty(objectKeys, pairKey, { value: true });
      }
      return true;
    }
    function constructYamlOmap(data) {
      return data !== null ? data : [];
    }
    module2.exports = new Type("tag:yaml.org,2002:omap", {
      kind: "sequence",
      resolve: resolveYamlOmap,
      construct: constructYamlOmap
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/pairs.js
var require_pairs = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/pairs.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    var _toString = Object.prototype.toString;
    function resolveYamlPairs(data) {
      if (data === null) return true;
      var index, length, pair, keys, result, object = data;
      result = new Array(object.length);
      for (index = 0, length = object.length; index < length; index += 1) {
        pair = object[index];
        if (_toString.call(pair) !== "[object Object]") return false;
        keys = Object.keys(pair);
        if (keys.length !== 1) return false;
        result[index] = [keys[0], pair[keys[0]]];
      }
      return true;
    }
    function constructYamlPairs(data) {
      if (data === null) return [];
      var index, length, pair, keys, result, object = data;
      result = new Array(object.length);
      for (index = 0, length = object.length; index < length; index += 1) {
        pair = object[index];
        keys = Object.keys(pair);
        result[index] = [keys[0], pair[keys[0]]];
      }
      return result;
    }
    module2.exports = new Type("tag:yaml.org,2002:pairs", {
      kind: "sequence",
      resolve: resolveYamlPairs,
      construct: constructYamlPairs
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/set.js
var require_set = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/set.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    var _hasOwnProperty = Object.prototype.hasOwnProperty;
    function resolveYamlSet(data) {
      if (data === null) return true;
      var key, object = data;
      for (key in object) {
        if (_hasOwnProperty.call(object, key)) {
          if (object[key] !== null) return false;
        }
      }
      return true;
    }
    function constructYamlSet(data) {
      return data !== null ? data : {};
    }
    module2.exports = new Type("tag:yaml.org,2002:set", {
      kind: "mapping",
      resolve: resolveYamlSet,
      construct: constructYamlSet
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/schema/default_safe.js
var require_default_safe = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/schema/default_safe.js"(exports2, module2) {
    "use strict";
    var Schema = require_schema();
    module2.exports = new Schema({
      include: [
        require_core()
      ],
      implicit: [
        require_timestamp(),
        require_merge()
      ],
      explicit: [
        require_binary(),
        require_omap(),
        require_pairs(),
        require_set()
      ]
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/js/undefined.js
var require_undefined = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/js/undefined.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    function resolveJavascriptUndefined() {
      return true;
    }
    function constructJavascriptUndefined() {
      return void 0;
    }
    function representJavascriptUndefined() {
      return "";
    }
    function isUndefined(object) {
      return typeof object === "undefined";
    }
    module2.exports = new Type("tag:yaml.org,2002:js/undefined", {
      kind: "scalar",
      resolve: resolveJavascriptUndefined,
      construct: constructJavascriptUndefined,
      predicate: isUndefined,
      represent: representJavascriptUndefined
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/js/regexp.js
var require_regexp = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/js/regexp.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    function resolveJavascriptRegExp(data) {
      if (data === null) return false;
      if (data.length === 0) return false;
      var regexp = data, tail = /\/([gim]*)$/.exec(data), modifiers = "";
      if (regexp[0] === "/") {
        if (tail) modifiers = tail[1];
        if (modifiers.length > 3) return false;
        if (regexp[regexp.length - modifiers.length - 1] !== "/") return false;
      }
      return true;
    }
    function constructJavascriptRegExp(data) {
      var regexp = data, tail = /\/([gim]*)$/.exec(data), modifiers = "";
      if (regexp[0] === "/") {
        if (tail) modifiers = tail[1];
        regexp = regexp.slice(1, regexp.length - modifiers.length - 1);
      }
      return new RegExp(regexp, modifiers);
    }
    function representJavascriptRegExp(object) {
      var result = "/" + object.source + "/";
      if (object.global) result += "g";
      if (object.multiline) result += "m";
      if (object.ignoreCase) result += "i";
      return result;
    }
    function isRegExp(object) {
      return Object.prototype.toString.call(object) === "[object RegExp]";
    }
    module2.exports = new Type("tag:yaml.org,2002:js/regexp", {
      kind: "scalar",
      resolve: resolveJavascriptRegExp,
      construct: constructJavascriptRegExp,
      predicate: isRegExp,
      represent: representJavascriptRegExp
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/js/function.js
var require_function = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/js/function.js"(exports2, module2) {
    "use strict";
    var esprima;
    try {
      _require = __require;
      esprima = _require("esprima");
    } catch (_) {
      if (typeof window !== "undefined") esprima = window.esprima;
    }
    var _require;
    var Type = require_type();
    function resolveJavascriptFunction(data) {
      if (data === null) return false;
      try {
        var source = "(" + data + ")", ast = esprima.parse(source, { range: true });
        if (ast.type !== "Program" || ast.body.length !== 1 || ast.body[0].type !== "ExpressionStatement" || ast.body[0].expression.type !== "ArrowFunctionExpression" && ast.body[0].expression.type !== "FunctionExpression") {
          return false;
        }
        return true;
      } catch (err) {
        return false;
      }
    }
    function constructJavascriptFunction(data) {
      var source = "(" + data + ")", ast = esprima.parse(source, { range: true }), params = [], body;
      if (ast.type !== "Program" || ast.body.length !== 1 || ast.body[0].type !== "ExpressionStatement" || ast.body[0].expression.type !== "ArrowFunctionExpression" && ast.body[0].expression.type !== "FunctionExpression") {
        throw new Error("Failed to resolve function");
      }
      ast.body[0].expression.params.forEach(function(param) {
        params.push(param.name);
      });
      body = ast.body[0].expression.body.range;
      if (ast.body[0].expression.body.type === "BlockStatement") {
        return new Function(params, source.slice(body[0] + 1, body[1] - 1));
      }
      return new Function(params, "return " + source.slice(body[0], body[1]));
    }
    function representJavascriptFunction(object) {
      return object.toString();
    }
    function isFunction(object) {
      return Object.prototype.toString.call(object) === "[object Function]";
    }
    module2.exports = new Type("tag:yaml.org,2002:js/function", {
      kind: "scalar",
      resolve: resolveJavascriptFunction,
      construct: constructJavascriptFunction,
      predicate: isFunction,
      represent: representJavascriptFunction
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/schema/default_full.js
var require_default_full = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/schema/default_full.js"(exports2, module2) {
    "use strict";
    var Schema = require_schema();
    module2.exports = Schema.DEFAULT = new Schema({
      include: [
        require_default_safe()
      ],
      explicit: [
        require_undefined(),
        require_regexp(),
        require_function()
      ]
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/loader.js
var require_loader = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/loader.js"(exports2, module2) {
    "use strict";
    var common = require_common();
    var YAMLException = require_exception();
    var Mark = require_mark();
    var DEFAULT_SAFE_SCHEMA = require_default_safe();
    var DEFAULT_FULL_SCHEMA = require_default_full();
    var _hasOwnProperty = Object.prototype.hasOwnProperty;
    var CONTEXT_FLOW_IN = 1;
    var CONTEXT_FLOW_OUT = 2;
    var CONTEXT_BLOCK_IN = 3;
    var CONTEXT_BLOCK_OUT = 4;
    var CHOMPING_CLIP = 1;
    var CHOMPING_STRIP = 2;
    var CHOMPING_KEEP = 3;
    var PATTERN_NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
    var PATTERN_NON_ASCII_LINE_BREAKS = /[\x85\u2028\u2029]/;
    var PATTERN_FLOW_INDICATORS = /[,\[\]\{\}]/;
    var PATTERN_TAG_HANDLE = /^(?:!|!!|![a-z\-]+!)$/i;
    var PATTERN_TAG_URI = /^(?:!|[^,\[\]\{\}])(?:%[0-9a-f]{2}|[0-9a-z\-#;\/\?:@&=\+\$,_\.!~\*'\(\)\[\]])*$/i;
    function _class(obj) {
      return Object.prototype.toString.call(obj);
    }
    function is_EOL(c) {
      return c === 10 || c === 13;
    }
    function is_WHITE_SPACE(c) {
      return c === 9 || c === 32;
    }
    function is_WS_OR_EOL(c) {
      return c === 9 || c === 32 || c === 10 || c === 13;
    }
    function is_FLOW_INDICATOR(c) {
      return c === 44 || c === 91 || c === 93 || c === 123 || c === 125;
    }
    function fromHexCode(c) {
      var lc;
      if (48 <= c && c <= 57) {
        return c - 48;
      }
      lc = c | 32;
      if (97 <= lc && lc <= 102) {
        return lc - 97 + 10;
      }
      return -1;
    }
    function escapedHexLen(c) {
      if (c === 120) {
        return 2;
      }
      if (c === 117) {
        return 4;
      }
      if (c === 85) {
        return 8;
      }
      return 0;
    }
    function fromDecimalCode(c) {
      if (48 <= c && c <= 57) {
        return c - 48;
      }
      return -1;
    }
    function simpleEscapeSequence(c) {
      return c === 48 ? "\0" : c === 97 ? "\x07" : c === 98 ? "\b" : c === 116 ? "	" : c === 9 ? "	" : c === 110 ? "\n" : c === 118 ? "\v" : c === 102 ? "\f" : c === 114 ? "\r" : c === 101 ? "\x1B" : c === 32 ? " " : c === 34 ? '"' : c === 47 ? "/" : c === 92 ? "\\" : c === 78 ? "" : c === 95 ? " " : c === 76 ? "\u2028" : c === 80 ? "\u2029" : "";
    }
    function charFromCodepoint(c) {
      if (c <= 65535) {
        return String.fromCharCode(c);
      }
      return String.fromCharCode(
        (c - 65536 >> 10) + 55296,
        (c - 65536 & 1023) + 56320
      );
    }
    function setProperty(object, key, value) {
      if (key === "__proto__") {
        Object.defineProperty(object, key, {
          configurable: true,
          enumerable: true,
          writable: true,
          value
        });
      } else {
        object[key] = value;
      }
    }
    var simpleEscapeCheck = new Array(256);
    var simpleEscapeMap = new Array(256);
    for (i = 0; i < 256; i++) {
      simpleEscapeCheck[i] = simpleEscapeSequence(i) ? 1 : 0;
      simpleEscapeMap[i] = simpleEscapeSequence(i);
    }
    var i;
    function State(input, options2) {
      this.input = input;
      this.filename = options2["filename"] || null;
      this.schema = options2["schema"] || DEFAULT_FULL_SCHEMA;
      this.onWarning = options2["onWarning"] || null;
      this.legacy = options2["legacy"] || false;
      this.json = options2["json"] || false;
      this.listener = options2["listener"] || null;
      this.maxTotalMergeKeys = typeof options2["maxTotalMergeKeys"] === "number" ? options2["maxTotalMergeKeys"] : 1e4;
      this.implicitTypes = this.schema.compiledImplicit;
      this.typeMap = this.schema.compiledTypeMap;
      this.length = input.length;
      this.position = 0;
      this.line = 0;
      this.lineStart = 0;
      this.lineIndent = 0;
      this.totalMergeKeys = 0;
      this.documents = [];
    }
    function generateError(state, message) {
      return new YAMLException(
        message,
        new Mark(state.filename, state.input, state.position, state.line, state.position - state.lineStart)
      );
    }
    function throwError(state, message) {
      throw generateError(state, message);
    }
    function throwWarning(state, message) {
      if (state.onWarning) {
        state.onWarning.call(null, generateError(state, message));
      }
    }
    var directiveHandlers = {
      YAML: function handleYamlDirective(state, name, args) {
        var match, major, minor;
        if (state.version !== null) {
          throwError(state, "duplication of %YAML directive");
        }
        if (args.length !== 1) {
          throwError(state, "YAML directive accepts exactly one argument");
        }
        match = /^([0-9]+)\.([0-9]+)$/.exec(args[0]);
        if (match === null) {
          throwError(state, "ill-formed argument of the YAML directive");
        }
        major = parseInt(match[1], 10);
        minor = parseInt(match[2], 10);
        if (major !== 1) {
          throwError(state, "unacceptable YAML version of the document");
        }
        state.version = args[0];
        state.checkLineBreaks = minor < 2;
        if (minor !== 1 && minor !== 2) {
          throwWarning(state, "unsupported YAML version of the document");
        }
      },
      TAG: function handleTagDirective(state, name, args) {
        var handle, prefix;
        if (args.length !== 2) {
          throwError(state, "TAG directive accepts exactly two arguments");
        }
        handle = args[0];
        prefix = args[1];
        if (!PATTERN_TAG_HANDLE.test(handle)) {
          throwError(state, "ill-formed tag handle (first argument) of the TAG directive");
        }
        if (_hasOwnProperty.call(state.tagMap, handle)) {
          throwError(state, 'there is a previously declared suffix for "' + handle + '" tag handle');
        }
        if (!PATTERN_TAG_URI.test(prefix)) {
          throwError(state, "ill-formed tag prefix (second argument) of the TAG directive");
        }
        state.tagMap[handle] = prefix;
      }
    };
    function captureSegment(state, start, end, checkJson) {
      var _position, _length, _character, _result;
      if (start < end) {
        _result = state.input.slice(start, end);
        if (checkJson) {
          for (_position = 0, _length = _result.length; _position < _length; _position += 1) {
            _character = _result.charCodeAt(_position);
            if (!(_character === 9 || 32 <= _character && _character <= 1114111)) {
              throwError(state, "expected valid JSON character");
            }
          }
        } else if (PATTERN_NON_PRINTABLE.test(_result)) {
          throwError(state, "the stream contains non-printable characters");
        }
        state.result += _result;
      }
    }
    function chargeMergeWork(state) {
      state.totalMergeKeys += 1;
      if (state.maxTotalMergeKeys !== -1 && state.totalMergeKeys > state.maxTotalMergeKeys) {
        throwError(state, "merge keys exceeded maxTotalMergeKeys (" + state.maxTotalMergeKeys + ")");
      }
    }
    function mergeMappings(state, destination, source, overridableKeys) {
      var sourceKeys, key, index, quantity;
      if (!common.isObject(source)) {
        throwError(state, "cannot merge mappings; the provided source object is unacceptable");
      }
      chargeMergeWork(state);
      sourceKeys = Object.keys(source);
      for (index = 0, quantity = sourceKeys.length; index < quantity; index += 1) {
        key = sourceKeys[index];
        chargeMergeWork(state);
        if (!_hasOwnProperty.call(destination, key)) {
          setProperty(destination, key, source[key]);
          overridableKeys[key] = true;
        }
      }
    }
    function storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, startLine, startPos) {
      var index, quantity;
      if (Array.isArray(keyNode)) {
        keyNode = Array.prototype.slice.call(keyNode);
        for (index = 0, quantity = keyNode.length; index < quantity; index += 1) {
          if (Array.isArray(keyNode[index])) {
            throwError(state, "nested arrays are not supported inside keys");
          }
          if (typeof keyNode === "object" && _class(keyNode[index]) === "[object Object]") {
            keyNode[index] = "[object Object]";
          }
        }
      }
      if (typeof keyNode === "object" && _class(keyNode) === "[object Object]") {
        keyNode = "[object Object]";
      }
      keyNode = String(keyNode);
      if (_result === null) {
        _result = {};
      }
      if (keyTag === "tag:yaml.org,2002:merge") {
        if (Array.isArray(valueNode)) {
          if (valueNode.length > 100) {
            throwError(state, "abnormal merge sequence size");
          }
          for (index = 0, quantity = valueNode.length; index < quantity; index += 1) {
            mergeMappings(state, _result, valueNode[index], overridableKeys);
          }
        } else {
          mergeMappings(state, _result, valueNode, overridableKeys);
        }
      } else {
        if (!state.json && !_hasOwnProperty.call(overridableKeys, keyNode) && _hasOwnProperty.call(_result, keyNode)) {
          state.line = startLine || state.line;
          state.position = startPos || state.position;
          throwError(state, "duplicated mapping key");
        }
        setProperty(_result, keyNode, valueNode);
        delete overridableKeys[keyNode];
      }
      return _result;
    }
    function readLineBreak(state) {
      var ch;
      ch = state.input.charCodeAt(state.position);
      if (ch === 10) {
        state.position++;
      } else if (ch === 13) {
        state.position++;
        if (state.input.charCodeAt(state.position) === 10) {
          state.position++;
        }
      } else {
        throwError(state, "a line break is expected");
      }
      state.line += 1;
      state.lineStart = state.position;
    }
    function skipSeparationSpace(state, allowComments, checkIndent) {
      var lineBreaks = 0, ch = state.input.charCodeAt(state.position);
      while (ch !== 0) {
        while (is_WHITE_SPACE(ch)) {
          ch = state.input.charCodeAt(++state.position);
        }
        if (allowComments && ch === 35) {
          do {
            ch = state.input.charCodeAt(++state.position);
          } while (ch !== 10 && ch !== 13 && ch !== 0);
        }
        if (is_EOL(ch)) {
          readLineBreak(state);
          ch = state.input.charCodeAt(state.position);
          lineBreaks++;
          state.lineIndent = 0;
          while (ch === 32) {
            state.lineIndent++;
            ch = state.input.charCodeAt(++state.position);
          }
        } else {
          break;
        }
      }
      if (checkIndent !== -1 && lineBreaks !== 0 && state.lineIndent < checkIndent) {
        throwWarning(state, "deficient indentation");
      }
      return lineBreaks;
    }
    function testDocumentSeparator(state) {
      var _position = state.position, ch;
      ch = state.input.charCodeAt(_position);
      if ((ch === 45 || ch === 46) && ch === state.input.charCodeAt(_position + 1) && ch === state.input.charCodeAt(_position + 2)) {
        _position += 3;
        ch = state.input.charCodeAt(_position);
        if (ch === 0 || is_WS_OR_EOL(ch)) {
          return true;
        }
      }
      return false;
    }
    function writeFoldedLines(state, count) {
      if (count === 1) {
        state.result += " ";
      } else if (count > 1) {
        state.result += common.repeat("\n", count - 1);
      }
    }
    function readPlainScalar(state, nodeIndent, withinFlowCollection) {
      var preceding, following, captureStart, captureEnd, hasPendingContent, _line, _lineStart, _lineIndent, _kind = state.kind, _result = state.result, ch;
      ch = state.input.charCodeAt(state.position);
      if (is_WS_OR_EOL(ch) || is_FLOW_INDICATOR(ch) || ch === 35 || ch === 38 || ch === 42 || ch === 33 || ch === 124 || ch === 62 || ch === 39 || ch === 34 || ch === 37 || ch === 64 || ch === 96) {
        return false;
      }
      if (ch === 63 || ch === 45) {
        following = state.input.charCodeAt(state.position + 1);
        if (is_WS_OR_EOL(following) || withinFlowCollection && is_FLOW_INDICATOR(following)) {
          return false;
        }
      }
      state.kind = "scalar";
      state.result = "";
      captureStart = captureEnd = state.position;
      hasPendingContent = false;
      while (ch !== 0) {
        if (ch === 58) {
          following = state.input.charCodeAt(state.position + 1);
          if (is_WS_OR_EOL(following) || withinFlowCollection && is_FLOW_INDICATOR(following)) {
            break;
          }
        } else if (ch === 35) {
          preceding = state.input.charCodeAt(state.position - 1);
          if (is_WS_OR_EOL(preceding)) {
            break;
          }
        } else if (state.position === state.lineStart && testDocumentSeparator(state) || withinFlowCollection && is_FLOW_INDICATOR(ch)) {
          break;
        } else if (is_EOL(ch)) {
          _line = state.line;
          _lineStart = state.lineStart;
          _lineIndent = state.lineIndent;
          skipSeparationSpace(state, false, -1);
          if (state.lineIndent >= nodeIndent) {
            hasPendingContent = true;
            ch = state.input.charCodeAt(state.position);
            continue;
          } else {
            state.position = captureEnd;
            state.line = _line;
            state.lineStart = _lineStart;
            state.lineIndent = _lineIndent;
            break;
          }
        }
        if (hasPendingContent) {
          captureSegment(state, captureStart, captureEnd, false);
          writeFoldedLines(state, state.line - _line);
          captureStart = captureEnd = state.position;
          hasPendingContent = false;
        }
        if (!is_WHITE_SPACE(ch)) {
          captureEnd = state.position + 1;
        }
        ch = state.input.charCodeAt(++state.position);
      }
      captureSegment(state, captureStart, captureEnd, false);
      if (state.result) {
        return true;
      }
      state.kind = _kind;
      state.result = _result;
      return false;
    }
    function readSingleQuotedScalar(state, nodeIndent) {
      var ch, captureStart, captureEnd;
      ch = state.input.charCodeAt(state.position);
      if (ch !== 39) {
        return false;
      }
      state.kind = "scalar";
      state.result = "";
      state.position++;
      captureStart = captureEnd = state.position;
      while ((ch = state.input.charCodeAt(state.position)) !== 0) {
        if (ch === 39) {
          captureSegment(state, captureStart, state.position, true);
          ch = state.input.charCodeAt(++state.position);
          if (ch === 39) {
            captureStart = state.position;
            state.position++;
            captureEnd = state.position;
          } else {
            return true;
          }
        } else if (is_EOL(ch)) {
          captureSegment(state, captureStart, captureEnd, true);
          writeFoldedLines(state, skipSeparationSpace(state, false, nodeIndent));
          captureStart = captureEnd = state.position;
        } else if (state.position === state.lineStart && testDocumentSeparator(state)) {
          throwError(state, "unexpected end of the document within a single quoted scalar");
        } else {
          state.position++;
          captureEnd = state.position;
        }
      }
      throwError(state, "unexpected end of the stream within a single quoted scalar");
    }
    function readDoubleQuotedScalar(state, nodeIndent) {
      var captureStart, captureEnd, hexLength, hexResult, tmp, ch;
      ch = state.input.charCodeAt(state.position);
      if (ch !== 34) {
        return false;
      }
      state.kind = "scalar";
      state.result = "";
      state.position++;
      captureStart = captureEnd = state.position;
      while ((ch = state.input.charCodeAt(state.position)) !== 0) {
        if (ch === 34) {
          captureSegment(state, captureStart, state.position, true);
          state.position++;
          return true;
        } else if (ch === 92) {
          captureSegment(state, captureStart, state.position, true);
          ch = state.input.charCodeAt(++state.position);
          if (is_EOL(ch)) {
            skipSeparationSpace(state, false, nodeIndent);
          } else if (ch < 256 && simpleEscapeCheck[ch]) {
            state.result += simpleEscapeMap[ch];
            state.position++;
          } else if ((tmp = escapedHexLen(ch)) > 0) {
            hexLength = tmp;
            hexResult = 0;
            for (; hexLength > 0; hexLength--) {
              ch = state.input.charCodeAt(++state.position);
              if ((tmp = fromHexCode(ch)) >= 0) {
                hexResult = (hexResult << 4) + tmp;
              } else {
                throwError(state, "expected hexadecimal character");
              }
            }
            state.result += charFromCodepoint(hexResult);
            state.position++;
          } else {
            throwError(state, "unknown escape sequence");
          }
          captureStart = captureEnd = state.position;
        } else if (is_EOL(ch)) {
          captureSegment(state, captureStart, captureEnd, true);
          writeFoldedLines(state, skipSeparationSpace(state, false, nodeIndent));
          captureStart = captureEnd = state.position;
        } else if (state.position === state.lineStart && testDocumentSeparator(state)) {
          throwError(state, "unexpected end of the document within a double quoted scalar");
        } else {
          state.position++;
          captureEnd = state.position;
        }
      }
      throwError(state, "unexpected end of the stream within a double quoted scalar");
    }
    function readFlowCollection(state, nodeIndent) {
      var readNext = true, _line, _tag = state.tag, _result, _anchor = state.anchor, following, terminator, isPair, isExplicitPair, isMapping, overridableKeys = {}, keyNode, keyTag, valueNode, ch;
      ch = state.input.charCodeAt(state.position);
      if (ch === 91) {
        terminator = 93;
        isMapping = false;
        _result = [];
      } else if (ch === 123) {
        terminator = 125;
        isMapping = true;
        _result = {};
      } else {
        return false;
      }
      if (state.anchor !== null) {
        state.anchorMap[state.anchor] = _result;
      }
      ch = state.input.charCodeAt(++state.position);
      while (ch !== 0) {
        skipSeparationSpace(state, true, nodeIndent);
        ch = state.input.charCodeAt(state.position);
        if (ch === terminator) {
          state.position++;
          state.tag = _tag;
          state.anchor = _anchor;
          state.kind = isMapping ? "mapping" : "sequence";
          state.result = _result;
          return true;
        } else if (!readNext) {
          throwError(state, "missed comma between flow collection entries");
        }
        keyTag = keyNode = valueNode = null;
        isPair = isExplicitPair = false;
        if (ch === 63) {
          following = state.input.charCodeAt(state.position + 1);
          if (is_WS_OR_EOL(following)) {
            isPair = isExplicitPair = true;
            state.position++;
            skipSeparationSpace(state, true, nodeIndent);
          }
        }
        _line = state.line;
        composeNode(state, nodeIndent, CONTEXT_FLOW_IN, false, true);
        keyTag = state.tag;
        keyNode = state.result;
        skipSeparationSpace(state, true, nodeIndent);
        ch = state.input.charCodeAt(state.position);
        if ((isExplicitPair || state.line === _line) && ch === 58) {
          isPair = true;
          ch = state.input.charCodeAt(++state.position);
          skipSeparationSpace(state, true, nodeIndent);
          composeNode(state, nodeIndent, CONTEXT_FLOW_IN, false, true);
          valueNode = state.result;
        }
        if (isMapping) {
          storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode);
        } else if (isPair) {
          _result.push(storeMappingPair(state, null, overridableKeys, keyTag, keyNode, valueNode));
        } else {
          _result.push(keyNode);
        }
        skipSeparationSpace(state, true, nodeIndent);
        ch = state.input.charCodeAt(state.position);
        if (ch === 44) {
          readNext = true;
          ch = state.input.charCodeAt(++state.position);
        } else {
          readNext = false;
        }
      }
      throwError(state, "unexpected end of the stream within a flow collection");
    }
    function readBlockScalar(state, nodeIndent) {
      var captureStart, folding, chomping = CHOMPING_CLIP, didReadContent = false, detectedIndent = false, textIndent = nodeIndent, emptyLines = 0, atMoreIndented = false, tmp, ch;
      ch = state.input.charCodeAt(state.position);
      if (ch === 124) {
        folding = false;
      } else if (ch === 62) {
        folding = true;
      } else {
        return false;
      }
      state.kind = "scalar";
      state.result = "";
      while (ch !== 0) {
        ch = state.input.charCodeAt(++state.position);
        if (ch === 43 || ch === 45) {
          if (CHOMPING_CLIP === chomping) {
            chomping = ch === 43 ? CHOMPING_KEEP : CHOMPING_STRIP;
          } else {
            throwError(state, "repeat of a chomping mode identifier");
          }
        } else if ((tmp = fromDecimalCode(ch)) >= 0) {
          if (tmp === 0) {
            throwError(state, "bad explicit indentation width of a block scalar; it cannot be less than one");
          } else if (!detectedIndent) {
            textIndent = nodeIndent + tmp - 1;
            detectedIndent = true;
          } else {
            throwError(state, "repeat of an indentation width identifier");
          }
        } else {
          break;
        }
      }
      if (is_WHITE_SPACE(ch)) {
        do {
          ch = state.input.charCodeAt(++state.position);
        } while (is_WHITE_SPACE(ch));
        if (ch === 35) {
          do {
            ch = state.input.charCodeAt(++state.position);
          } while (!is_EOL(ch) && ch !== 0);
        }
      }
      while (ch !== 0) {
        readLineBreak(state);
        state.lineIndent = 0;
        ch = state.input.charCodeAt(state.position);
        while ((!detectedIndent || state.lineIndent < textIndent) && ch === 32) {
          state.lineIndent++;
          ch = state.input.charCodeAt(++state.position);
        }
        if (!detectedIndent && state.lineIndent > textIndent) {
          textIndent = state.lineIndent;
        }
        if (is_EOL(ch)) {
          emptyLines++;
          continue;
        }
        if (state.lineIndent < textIndent) {
          if (chomping === CHOMPING_KEEP) {
            state.result += common.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
          } else if (chomping === CHOMPING_CLIP) {
            if (didReadContent) {
              state.result += "\n";
            }
          }
          break;
        }
        if (folding) {
          if (is_WHITE_SPACE(ch)) {
            atMoreIndented = true;
            state.result += common.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
          } else if (atMoreIndented) {
            atMoreIndented = false;
            state.result += common.repeat("\n", emptyLines + 1);
          } else if (emptyLines === 0) {
            if (didReadContent) {
              state.result += " ";
            }
          } else {
            state.result += common.repeat("\n", emptyLines);
          }
        } else {
          state.result += common.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
        }
        didReadContent = true;
        detectedIndent = true;
        emptyLines = 0;
        captureStart = state.position;
        while (!is_EOL(ch) && ch !== 0) {
          ch = state.input.charCodeAt(++state.position);
        }
        captureSegment(state, captureStart, state.position, false);
      }
      return true;
    }
    function readBlockSequence(state, nodeIndent) {
      var _line, _tag = state.tag, _anchor = state.anchor, _result = [], following, detected = false, ch;
      if (state.anchor !== null) {
        state.anchorMap[state.anchor] = _result;
      }
      ch = state.input.charCodeAt(state.position);
      while (ch !== 0) {
        if (ch !== 45) {
          break;
        }
        following = state.input.charCodeAt(state.position + 1);
        if (!is_WS_OR_EOL(following)) {
          break;
        }
        detected = true;
        state.position++;
        if (skipSeparationSpace(state, true, -1)) {
          if (state.lineIndent <= nodeIndent) {
            _result.push(null);
            ch = state.input.charCodeAt(state.position);
            continue;
          }
        }
        _line = state.line;
        composeNode(state, nodeIndent, CONTEXT_BLOCK_IN, false, true);
        _result.push(state.result);
        skipSeparationSpace(state, true, -1);
        ch = state.input.charCodeAt(state.position);
        if ((state.line === _line || state.lineIndent > nodeIndent) && ch !== 0) {
          throwError(state, "bad indentation of a sequence entry");
        } else if (state.lineIndent < nodeIndent) {
          break;
        }
      }
      if (detected) {
        state.tag = _tag;
        state.anchor = _anchor;
        state.kind = "sequence";
        state.result = _result;
        return true;
      }
      return false;
    }
    function readBlockMapping(state, nodeIndent, flowIndent) {
      var following, allowCompact, _line, _pos, _tag = state.tag, _anchor = state.anchor, _result = {}, overridableKeys = {}, keyTag = null, keyNode = null, valueNode = null, atExplicitKey = false, detected = false, ch;
      if (state.anchor !== null) {
        state.anchorMap[state.anchor] = _result;
      }
      ch = state.input.charCodeAt(state.position);
      while (ch !== 0) {
        following = state.input.charCodeAt(state.position + 1);
        _line = state.line;
        _pos = state.position;
        if ((ch === 63 || ch === 58) && is_WS_OR_EOL(following)) {
          if (ch === 63) {
            if (atExplicitKey) {
              storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null);
              keyTag = keyNode = valueNode = null;
            }
            detected = true;
            atExplicitKey = true;
            allowCompact = true;
          } else if (atExplicitKey) {
            atExplicitKey = false;
            allowCompact = true;
          } else {
            throwError(state, "incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line");
          }
          state.position += 1;
          ch = following;
        } else if (composeNode(state, flowIndent, CONTEXT_FLOW_OUT, false, true)) {
          if (state.line === _line) {
            ch = state.input.charCodeAt(state.position);
            while (is_WHITE_SPACE(ch)) {
              ch = state.input.charCodeAt(++state.position);
            }
            if (ch === 58) {
              ch = state.input.charCodeAt(++state.position);
              if (!is_WS_OR_EOL(ch)) {
                throwError(state, "a whitespace character is expected after the key-value separator within a block mapping");
              }
              if (atExplicitKey) {
                storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null);
                keyTag = keyNode = valueNode = null;
              }
              detected = true;
              atExplicitKey = false;
              allowCompact = false;
              keyTag = state.tag;
              keyNode = state.result;
            } else if (detected) {
              throwError(state, "can not read an implicit mapping pair; a colon is missed");
            } else {
              state.tag = _tag;
              state.anchor = _anchor;
              return true;
            }
          } else if (detected) {
            throwError(state, "can not read a block mapping entry; a multiline key may not be an implicit key");
          } else {
            state.tag = _tag;
            state.anchor = _anchor;
            return true;
          }
        } else {
          break;
        }
        if (state.line === _line || state.lineIndent > nodeIndent) {
          if (composeNode(state, nodeIndent, CONTEXT_BLOCK_OUT, true, allowCompact)) {
            if (atExplicitKey) {
              keyNode = state.result;
            } else {
              valueNode = state.result;
            }
          }
          if (!atExplicitKey) {
            storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, _line, _pos);
            keyTag = keyNode = valueNode = null;
          }
          skipSeparationSpace(state, true, -1);
          ch = state.input.charCodeAt(state.position);
        }
        if (state.lineIndent > nodeIndent && ch !== 0) {
          throwError(state, "bad indentation of a mapping entry");
        } else if (state.lineIndent < nodeIndent) {
          break;
        }
      }
      if (atExplicitKey) {
        storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null);
      }
      if (detected) {
        state.tag = _tag;
        state.anchor = _anchor;
        state.kind = "mapping";
        state.result = _result;
      }
      return detected;
    }
    function readTagProperty(state) {
      var _position, isVerbatim = false, isNamed = false, tagHandle, tagName, ch;
      ch = state.input.charCodeAt(state.position);
      if (ch !== 33) return false;
      if (state.tag !== null) {
        throwError(state, "duplication of a tag property");
      }
      ch = state.input.charCodeAt(++state.position);
      if (ch === 60) {
        isVerbatim = true;
        ch = state.input.charCodeAt(++state.position);
      } else if (ch === 33) {
        isNamed = true;
        tagHandle = "!!";
        ch = state.input.charCodeAt(++state.position);
      } else {
        tagHandle = "!";
      }
      _position = state.position;
      if (isVerbatim) {
        do {
          ch = state.input.charCodeAt(++state.position);
        } while (ch !== 0 && ch !== 62);
        if (state.position < state.length) {
          tagName = state.input.slice(_position, state.position);
          ch = state.input.charCodeAt(++state.position);
        } else {
          throwError(state, "unexpected end of the stream within a verbatim tag");
        }
      } else {
        while (ch !== 0 && !is_WS_OR_EOL(ch)) {
          if (ch === 33) {
            if (!isNamed) {
              tagHandle = state.input.slice(_position - 1, state.position + 1);
              if (!PATTERN_TAG_HANDLE.test(tagHandle)) {
                throwError(state, "named tag handle cannot contain such characters");
              }
              isNamed = true;
              _position = state.position + 1;
            } else {
              throwError(state, "tag suffix cannot contain exclamation marks");
            }
          }
          ch = state.input.charCodeAt(++state.position);
        }
        tagName = state.input.slice(_position, state.position);
        if (PATTERN_FLOW_INDICATORS.test(tagName)) {
          throwError(state, "tag suffix cannot contain flow indicator characters");
        }
      }
      if (tagName && !PATTERN_TAG_URI.test(tagName)) {
        throwError(state, "tag name cannot contain such characters: " + tagName);
      }
      if (isVerbatim) {
        state.tag = tagName;
      } else if (_hasOwnProperty.call(state.tagMap, tagHandle)) {
        state.tag = state.tagMap[tagHandle] + tagName;
      } else if (tagHandle === "!") {
        state.tag = "!" + tagName;
      } else if (tagHandle === "!!") {
        state.tag = "tag:yaml.org,2002:" + tagName;
      } else {
        throwError(state, 'undeclared tag handle "' + tagHandle + '"');
      }
      return true;
    }
    function readAnchorProperty(state) {
      var _position, ch;
      ch = state.input.charCodeAt(state.position);
      if (ch !== 38) return false;
      if (state.anchor !== null) {
        throwError(state, "duplication of an anchor property");
      }
      ch = state.input.charCodeAt(++state.position);
      _position = state.position;
      while (ch !== 0 && !is_WS_OR_EOL(ch) && !is_FLOW_INDICATOR(ch)) {
        ch = state.input.charCodeAt(++state.position);
      }
      if (state.position === _position) {
        throwError(state, "name of an anchor node must contain at least one character");
      }
      state.anchor = state.input.slice(_position, state.position);
      return true;
    }
    function readAlias(state) {
      var _position, alias, ch;
      ch = state.input.charCodeAt(state.position);
      if (ch !== 42) return false;
      ch = state.input.charCodeAt(++state.position);
      _position = state.position;
      while (ch !== 0 && !is_WS_OR_EOL(ch) && !is_FLOW_INDICATOR(ch)) {
        ch = state.input.charCodeAt(++state.position);
      }
      if (state.position === _position) {
        throwError(state, "name of an alias node must contain at least one character");
      }
      alias = state.input.slice(_position, state.position);
      if (!_hasOwnProperty.call(state.anchorMap, alias)) {
        throwError(state, 'unidentified alias "' + alias + '"');
      }
      state.result = state.anchorMap[alias];
      skipSeparationSpace(state, true, -1);
      return true;
    }
    function composeNode(state, parentIndent, nodeContext, allowToSeek, allowCompact) {
      var allowBlockStyles, allowBlockScalars, allowBlockCollections, indentStatus = 1, atNewLine = false, hasContent = false, typeIndex, typeQuantity, type, flowIndent, blockIndent;
      if (state.listener !== null) {
        state.listener("open", state);
      }
      state.tag = null;
      state.anchor = null;
      state.kind = null;
      state.result = null;
      allowBlockStyles = allowBlockScalars = allowBlockCollections = CONTEXT_BLOCK_OUT === nodeContext || CONTEXT_BLOCK_IN === nodeContext;
      if (allowToSeek) {
        if (skipSeparationSpace(state, true, -1)) {
          atNewLine = true;
          if (state.lineIndent > parentIndent) {
            indentStatus = 1;
          } else if (state.lineIndent === parentIndent) {
            indentStatus = 0;
          } else if (state.lineIndent < parentIndent) {
            indentStatus = -1;
          }
        }
      }
      if (indentStatus === 1) {
        while (readTagProperty(state) || readAnchorProperty(state)) {
          if (skipSeparationSpace(state, true, -1)) {
            atNewLine = true;
            allowBlockCollections = allowBlockStyles;
            if (state.lineIndent > parentIndent) {
              indentStatus = 1;
            } else if (state.lineIndent === parentIndent) {
              indentStatus = 0;
            } else if (state.lineIndent < parentIndent) {
              indentStatus = -1;
            }
          } else {
            allowBlockCollections = false;
          }
        }
      }
      if (allowBlockCollections) {
        allowBlockCollections = atNewLine || allowCompact;
      }
      if (indentStatus === 1 || CONTEXT_BLOCK_OUT === nodeContext) {
        if (CONTEXT_FLOW_IN === nodeContext || CONTEXT_FLOW_OUT === nodeContext) {
          flowIndent = parentIndent;
        } else {
          flowIndent = parentIndent + 1;
        }
        blockIndent = state.position - state.lineStart;
        if (indentStatus === 1) {
          if (allowBlockCollections && (readBlockSequence(state, blockIndent) || readBlockMapping(state, blockIndent, flowIndent)) || readFlowCollection(state, flowIndent)) {
            hasContent = true;
          } else {
            if (allowBlockScalars && readBlockScalar(state, flowIndent) || readSingleQuotedScalar(state, flowIndent) || readDoubleQuotedScalar(state, flowIndent)) {
              hasContent = true;
            } else if (readAlias(state)) {
              hasContent = true;
              if (state.tag !== null || state.anchor !== null) {
                throwError(state, "alias node should not have any properties");
              }
            } else if (readPlainScalar(state, flowIndent, CONTEXT_FLOW_IN === nodeContext)) {
              hasContent = true;
              if (state.tag === null) {
                state.tag = "?";
              }
            }
            if (state.anchor !== null) {
              state.anchorMap[state.anchor] = state.result;
            }
          }
        } else if (indentStatus === 0) {
          hasContent = allowBlockCollections && readBlockSequence(state, blockIndent);
        }
      }
      if (state.tag !== null && state.tag !== "!") {
        if (state.tag === "?") {
          if (state.result !== null && state.kind !== "scalar") {
            throwError(state, 'unacceptable node kind for !<?> tag; it should be "scalar", not "' + state.kind + '"');
          }
          for (typeIndex = 0, typeQuantity = state.implicitTypes.length; typeIndex < typeQuantity; typeIndex += 1) {
            type = state.implicitTypes[typeIndex];
            if (type.resolve(state.result)) {
              state.result = type.construct(state.result);
              state.tag = type.tag;
              if (state.anchor !== null) {
                state.anchorMap[state.anchor] = state.result;
              }
              break;
            }
          }
        } else if (_hasOwnProperty.call(state.typeMap[state.kind || "fallback"], state.tag)) {
          type = state.typeMap[state.kind || "fallback"][state.tag];
          if (state.result !== null && type.kind !== state.kind) {
            throwError(state, "unacceptable node kind for !<" + state.tag + '> tag; it should be "' + type.kind + '", not "' + state.kind + '"');
          }
          if (!type.resolve(state.result)) {
            throwError(state, "cannot resolve a node with !<" + state.tag + "> explicit tag");
          } else {
            state.result = type.construct(state.result);
            if (state.anchor !== null) {
              state.anchorMap[state.anchor] = state.result;
            }
          }
        } else {
          throwError(state, "unknown tag !<" + state.tag + ">");
        }
      }
      if (state.listener !== null) {
        state.listener("close", state);
      }
      return state.tag !== null || state.anchor !== null || hasContent;
    }
    function readDocument(state) {
      var documentStart = state.position, _position, directiveName, directiveArgs, hasDirectives = false, ch;
      state.version = null;
      state.checkLineBreaks = state.legacy;
      state.tagMap = {};
      state.anchorMap = {};
      while ((ch = state.input.charCodeAt(state.position)) !== 0) {
        skipSeparationSpace(state, true, -1);
        ch = state.input.charCodeAt(state.position);
        if (state.lineIndent > 0 || ch !== 37) {
          break;
        }
        hasDirectives = true;
        ch = state.input.charCodeAt(++state.position);
        _position = state.position;
        while (ch !== 0 && !is_WS_OR_EOL(ch)) {
          ch = state.input.charCodeAt(++state.position);
        }
        directiveName = state.input.slice(_position, state.position);
        directiveArgs = [];
        if (directiveName.length < 1) {
          throwError(state, "directive name must not be less than one character in length");
        }
        while (ch !== 0) {
          while (is_WHITE_SPACE(ch)) {
            ch = state.input.charCodeAt(++state.position);
          }
          if (ch === 35) {
            do {
              ch = state.input.charCodeAt(++state.position);
            } while (ch !== 0 && !is_EOL(ch));
            break;
          }
          if (is_EOL(ch)) break;
          _position = state.position;
          while (ch !== 0 && !is_WS_OR_EOL(ch)) {
            ch = state.input.charCodeAt(++state.position);
          }
          directiveArgs.push(state.input.slice(_position, state.position));
        }
        if (ch !== 0) readLineBreak(state);
        if (_hasOwnProperty.call(directiveHandlers, directiveName)) {
          directiveHandlers[directiveName](state, directiveName, directiveArgs);
        } else {
          throwWarning(state, 'unknown document directive "' + directiveName + '"');
        }
      }
      skipSeparationSpace(state, true, -1);
      if (state.lineIndent === 0 && state.input.charCodeAt(state.position) === 45 && state.input.charCodeAt(state.position + 1) === 45 && state.input.charCodeAt(state.position + 2) === 45) {
        state.position += 3;
        skipSeparationSpace(state, true, -1);
      } else if (hasDirectives) {
        throwError(state, "directives end mark is expected");
      }
      composeNode(state, state.lineIndent - 1, CONTEXT_BLOCK_OUT, false, true);
      skipSeparationSpace(state, true, -1);
      if (state.checkLineBreaks && PATTERN_NON_ASCII_LINE_BREAKS.test(state.input.slice(documentStart, state.position))) {
        throwWarning(state, "non-ASCII line breaks are interpreted as content");
      }
      state.documents.push(state.result);
      if (state.position === state.lineStart && testDocumentSeparator(state)) {
        if (state.input.charCodeAt(state.position) === 46) {
          state.position += 3;
          skipSeparationSpace(state, true, -1);
        }
        return;
      }
      if (state.position < state.length - 1) {
        throwError(state, "end of the stream or a document separator is expected");
      } else {
        return;
      }
    }
    function loadDocuments(input, options2) {
      input = String(input);
      options2 = options2 || {};
      if (input.length !== 0) {
        if (input.charCodeAt(input.length - 1) !== 10 && input.charCodeAt(input.length - 1) !== 13) {
          input += "\n";
        }
        if (input.charCodeAt(0) === 65279) {
          input = input.slice(1);
        }
      }
      var state = new State(input, options2);
      var nullpos = input.indexOf("\0");
      if (nullpos !== -1) {
        state.position = nullpos;
        throwError(state, "null byte is not allowed in input");
      }
      state.input += "\0";
      while (state.input.charCodeAt(state.position) === 32) {
        state.lineIndent += 1;
        state.position += 1;
      }
      while (state.position < state.length - 1) {
        readDocument(state);
      }
      return state.documents;
    }
    function loadAll(input, iterator, options2) {
      if (iterator !== null && typeof iterator === "object" && typeof options2 === "undefined") {
        options2 = iterator;
        iterator = null;
      }
      var documents = loadDocuments(input, options2);
      if (typeof iterator !== "function") {
        return documents;
      }
      for (var index = 0, length = documents.length; index < length; index += 1) {
        iterator(documents[index]);
      }
    }
    function load(input, options2) {
      var documents = loadDocuments(input, options2);
      if (documents.length === 0) {
        return void 0;
      } else if (documents.length === 1) {
        return documents[0];
      }
      throw new YAMLException("expected a single document in the stream, but found more");
    }
    function safeLoadAll(input, iterator, options2) {
      if (typeof iterator === "object" && iterator !== null && typeof options2 === "undefined") {
        options2 = iterator;
        iterator = null;
      }
      return loadAll(input, iterator, common.extend({ schema: DEFAULT_SAFE_SCHEMA }, options2));
    }
    function safeLoad(input, options2) {
      return load(input, common.extend({ schema: DEFAULT_SAFE_SCHEMA }, options2));
    }
    module2.exports.loadAll = loadAll;
    module2.exports.load = load;
    module2.exports.safeLoadAll = safeLoadAll;
    module2.exports.safeLoad = safeLoad;
  }
});

// node_modules/js-yaml/lib/js-yaml/dumper.js
var require_dumper = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/dumper.js"(exports2, module2) {
    "use strict";
    var common = require_common();
    var YAMLException = require_exception();
    var DEFAULT_FULL_SCHEMA = require_default_full();
    var DEFAULT_SAFE_SCHEMA = require_default_safe();
    var _toString = Object.prototype.toString;
    var _hasOwnProperty = Object.prototype.hasOwnProperty;
    var CHAR_TAB = 9;
    var CHAR_LINE_FEED = 10;
    var CHAR_CARRIAGE_RETURN = 13;
    var CHAR_SPACE = 32;
    var CHAR_EXCLAMATION = 33;
    var CHAR_DOUBLE_QUOTE = 34;
    var CHAR_SHARP = 35;
    var CHAR_PERCENT = 37;
    var CHAR_AMPERSAND = 38;
    var CHAR_SINGLE_QUOTE = 39;
    var CHAR_ASTERISK = 42;
    var CHAR_COMMA = 44;
    var CHAR_MINUS = 45;
    var CHAR_COLON = 58;
    var CHAR_EQUALS = 61;
    var CHAR_GREATER_THAN = 62;
    var CHAR_QUESTION = 63;
    var CHAR_COMMERCIAL_AT = 64;
    var CHAR_LEFT_SQUARE_BRACKET = 91;
    var CHAR_RIGHT_SQUARE_BRACKET = 93;
    var CHAR_GRAVE_ACCENT = 96;
    var CHAR_LEFT_CURLY_BRACKET = 123;
    var CHAR_VERTICAL_LINE = 124;
    var CHAR_RIGHT_CURLY_BRACKET = 125;
    var ESCAPE_SEQUENCES = {};
    ESCAPE_SEQUENCES[0] = "\\0";
    ESCAPE_SEQUENCES[7] = "\\a";
    ESCAPE_SEQUENCES[8] = "\\b";
    ESCAPE_SEQUENCES[9] = "\\t";
    ESCAPE_SEQUENCES[10] = "\\n";
    ESCAPE_SEQUENCES[11] = "\\v";
    ESCAPE_SEQUENCES[12] = "\\f";
    ESCAPE_SEQUENCES[13] = "\\r";
    ESCAPE_SEQUENCES[27] = "\\e";
    ESCAPE_SEQUENCES[34] = '\\"';
    ESCAPE_SEQUENCES[92] = "\\\\";
    ESCAPE_SEQUENCES[133] = "\\N";
    ESCAPE_SEQUENCES[160] = "\\_";
    ESCAPE_SEQUENCES[8232] = "\\L";
    ESCAPE_SEQUENCES[8233] = "\\P";
    var DEPRECATED_BOOLEANS_SYNTAX = [
      "y",
      "Y",
      "yes",
      "Yes",
      "YES",
      "on",
      "On",
      "ON",
      "n",
      "N",
      "no",
      "No",
      "NO",
      "off",
      "Off",
      "OFF"
    ];
    function compileStyleMap(schema, map) {
      var result, keys, index, length, tag, style, type;
      if (map === null) return {};
      result = {};
      keys = Object.keys(map);
      for (index = 0, length = keys.length; index < length; index += 1) {
        tag = keys[index];
        style = String(map[tag]);
        if (tag.slice(0, 2) === "!!") {
          tag = "tag:yaml.org,2002:" + tag.slice(2);
        }
        type = schema.compiledTypeMap["fallback"][tag];
        if (type && _hasOwnProperty.call(type.styleAliases, style)) {
          style = type.styleAliases[style];
        }
        result[tag] = style;
      }
      return result;
    }
    function encodeHex(character) {
      var string, handle, length;
      string = character.toString(16).toUpperCase();
      if (character <= 255) {
        handle = "x";
        length = 2;
      } else if (character <= 65535) {
        handle = "u";
        length = 4;
      } else if (character <= 4294967295) {
        handle = "U";
        length = 8;
      } else {
        throw new YAMLException("code point within a string may not be greater than 0xFFFFFFFF");
      }
      return "\\" + handle + common.repeat("0", length - string.length) + string;
    }
    function State(options2) {
      this.schema = options2["schema"] || DEFAULT_FULL_SCHEMA;
      this.indent = Math.max(1, options2["indent"] || 2);
      this.noArrayIndent = options2["noArrayIndent"] || false;
      this.skipInvalid = options2["skipInvalid"] || false;
      this.flowLevel = common.isNothing(options2["flowLevel"]) ? -1 : options2["flowLevel"];
      this.styleMap = compileStyleMap(this.schema, options2["styles"] || null);
      this.sortKeys = options2["sortKeys"] || false;
      this.lineWidth = options2["lineWidth"] || 80;
      this.noRefs = options2["noRefs"] || false;
      this.noCompatMode = options2["noCompatMode"] || false;
      this.condenseFlow = options2["condenseFlow"] || false;
      this.implicitTypes = this.schema.compiledImplicit;
      this.explicitTypes = this.schema.compiledExplicit;
      this.tag = null;
      this.result = "";
      this.duplicates = [];
      this.usedDuplicates = null;
    }
    function indentString(string, spaces) {
      var ind = common.repeat(" ", spaces), position = 0, next2 = -1, result = "", line, length = string.length;
      while (position < length) {
        next2 = string.indexOf("\n", position);
        if (next2 === -1) {
          line = string.slice(position);
          position = length;
        } else {
          line = string.slice(position, next2 + 1);
          position = next2 + 1;
        }
        if (line.length && line !== "\n") result += ind;
        result += line;
      }
      return result;
    }
    function generateNextLine(state, level) {
      return "\n" + common.repeat(" ", state.indent * level);
    }
    function testImplicitResolving(state, str4) {
      var index, length, type;
      for (index = 0, length = state.implicitTypes.length; index < length; index += 1) {
        type = state.implicitTypes[index];
        if (type.resolve(str4)) {
          return true;
        }
      }
      return false;
    }
    function isWhitespace(c) {
      return c === CHAR_SPACE || c === CHAR_TAB;
    }
    function isPrintable(c) {
      return 32 <= c && c <= 126 || 161 <= c && c <= 55295 && c !== 8232 && c !== 8233 || 57344 <= c && c <= 65533 && c !== 65279 || 65536 <= c && c <= 1114111;
    }
    function isNsChar(c) {
      return isPrintable(c) && !isWhitespace(c) && c !== 65279 && c !== CHAR_CARRIAGE_RETURN && c !== CHAR_LINE_FEED;
    }
    function isPlainSafe2(c, prev) {
      return isPrintable(c) && c !== 65279 && c !== CHAR_COMMA && c !== CHAR_LEFT_SQUARE_BRACKET && c !== CHAR_RIGHT_SQUARE_BRACKET && c !== CHAR_LEFT_CURLY_BRACKET && c !== CHAR_RIGHT_CURLY_BRACKET && c !== CHAR_COLON && (c !== CHAR_SHARP || prev && isNsChar(prev));
    }
    function isPlainSafeFirst(c) {
      return isPrintable(c) && c !== 65279 && !isWhitespace(c) && c !== CHAR_MINUS && c !== CHAR_QUESTION && c !== CHAR_COLON && c !== CHAR_COMMA && c !== CHAR_LEFT_SQUARE_BRACKET && c !== CHAR_RIGHT_SQUARE_BRACKET && c !== CHAR_LEFT_CURLY_BRACKET && c !== CHAR_RIGHT_CURLY_BRACKET && c !== CHAR_SHARP && c !== CHAR_AMPERSAND && c !== CHAR_ASTERISK && c !== CHAR_EXCLAMATION && c !== CHAR_VERTICAL_LINE && c !== CHAR_EQUALS && c !== CHAR_GREATER_THAN && c !== CHAR_SINGLE_QUOTE && c !== CHAR_DOUBLE_QUOTE && c !== CHAR_PERCENT && c !== CHAR_COMMERCIAL_AT && c !== CHAR_GRAVE_ACCENT;
    }
    function needIndentIndicator(string) {
      var leadingSpaceRe = /^\n* /;
      return leadingSpaceRe.test(string);
    }
    var STYLE_PLAIN = 1;
    var STYLE_SINGLE = 2;
    var STYLE_LITERAL = 3;
    var STYLE_FOLDED = 4;
    var STYLE_DOUBLE = 5;
    function chooseScalarStyle(string, singleLineOnly, indentPerLevel, lineWidth, testAmbiguousType) {
      var i;
      var char, prev_char;
      var hasLineBreak = false;
      var hasFoldableLine = false;
      var shouldTrackWidth = lineWidth !== -1;
      var previousLineBreak = -1;
      var plain = isPlainSafeFirst(string.charCodeAt(0)) && !isWhitespace(string.charCodeAt(string.length - 1));
      if (singleLineOnly) {
        for (i = 0; i < string.length; i++) {
          char = string.charCodeAt(i);
          if (!isPrintable(char)) {
            return STYLE_DOUBLE;
          }
          prev_char = i > 0 ? string.charCodeAt(i - 1) : null;
          plain = plain && isPlainSafe2(char, prev_char);
        }
      } else {
        for (i = 0; i < string.length; i++) {
          char = string.charCodeAt(i);
          if (char === CHAR_LINE_FEED) {
            hasLineBreak = true;
            if (shouldTrackWidth) {
              hasFoldableLine = hasFoldableLine || // Foldable line = too long, and not more-indented.
              i - previousLineBreak - 1 > lineWidth && string[previousLineBreak + 1] !== " ";
              previousLineBreak = i;
            }
          } else if (!isPrintable(char)) {
            return STYLE_DOUBLE;
          }
          prev_char = i > 0 ? string.charCodeAt(i - 1) : null;
          plain = plain && isPlainSafe2(char, prev_char);
        }
        hasFoldableLine = hasFoldableLine || shouldTrackWidth && (i - previousLineBreak - 1 > lineWidth && string[previousLineBreak + 1] !== " ");
      }
      if (!hasLineBreak && !hasFoldableLine) {
        return plain && !testAmbiguousType(string) ? STYLE_PLAIN : STYLE_SINGLE;
      }
      if (indentPerLevel > 9 && needIndentIndicator(string)) {
        return STYLE_DOUBLE;
      }
      return hasFoldableLine ? STYLE_FOLDED : STYLE_LITERAL;
    }
    function writeScalar(state, string, level, iskey) {
      state.dump = (function() {
        if (string.length === 0) {
          return "''";
        }
        if (!state.noCompatMode && DEPRECATED_BOOLEANS_SYNTAX.indexOf(string) !== -1) {
          return "'" + string + "'";
        }
        var indent = state.indent * Math.max(1, level);
        var lineWidth = state.lineWidth === -1 ? -1 : Math.max(Math.min(state.lineWidth, 40), state.lineWidth - indent);
        var singleLineOnly = iskey || state.flowLevel > -1 && level >= state.flowLevel;
        function testAmbiguity(string2) {
          return testImplicitResolving(state, string2);
        }
        switch (chooseScalarStyle(string, singleLineOnly, state.indent, lineWidth, testAmbiguity)) {
          case STYLE_PLAIN:
            return string;
          case STYLE_SINGLE:
            return "'" + string.replace(/'/g, "''") + "'";
          case STYLE_LITERAL:
            return "|" + blockHeader(string, state.indent) + dropEndingNewline(indentString(string, indent));
          case STYLE_FOLDED:
            return ">" + blockHeader(string, state.indent) + dropEndingNewline(indentString(foldString(string, lineWidth), indent));
          case STYLE_DOUBLE:
            return '"' + escapeString(string, lineWidth) + '"';
          default:
            throw new YAMLException("impossible error: invalid scalar style");
        }
      })();
    }
    function blockHeader(string, indentPerLevel) {
      var indentIndicator = needIndentIndicator(string) ? String(indentPerLevel) : "";
      var clip = string[string.length - 1] === "\n";
      var keep = clip && (string[string.length - 2] === "\n" || string === "\n");
      var chomp = keep ? "+" : clip ? "" : "-";
      return indentIndicator + chomp + "\n";
    }
    function dropEndingNewline(string) {
      return string[string.length - 1] === "\n" ? string.slice(0, -1) : string;
    }
    function foldString(string, width) {
      var lineRe = /(\n+)([^\n]*)/g;
      var result = (function() {
        var nextLF = string.indexOf("\n");
        nextLF = nextLF !== -1 ? nextLF : string.length;
        lineRe.lastIndex = nextLF;
        return foldLine(string.slice(0, nextLF), width);
      })();
      var prevMoreIndented = string[0] === "\n" || string[0] === " ";
      var moreIndented;
      var match;
      while (match = lineRe.exec(string)) {
        var prefix = match[1], line = match[2];
        moreIndented = line[0] === " ";
        result += prefix + (!prevMoreIndented && !moreIndented && line !== "" ? "\n" : "") + foldLine(line, width);
        prevMoreIndented = moreIndented;
      }
      return result;
    }
    function foldLine(line, width) {
      if (line === "" || line[0] === " ") return line;
      var breakRe = / [^ ]/g;
      var match;
      var start = 0, end, curr = 0, next2 = 0;
      var result = "";
      while (match = breakRe.exec(line)) {
        next2 = match.index;
        if (next2 - start > width) {
          end = curr > start ? curr : next2;
          result += "\n" + line.slice(start, end);
          start = end + 1;
        }
        curr = next2;
      }
      result += "\n";
      if (line.length - start > width && curr > start) {
        result += line.slice(start, curr) + "\n" + line.slice(curr + 1);
      } else {
        result += line.slice(start);
      }
      return result.slice(1);
    }
    function escapeString(string) {
      var result = "";
      var char, nextChar;
      var escapeSeq;
      for (var i = 0; i < string.length; i++) {
        char = string.charCodeAt(i);
        if (char >= 55296 && char <= 56319) {
          nextChar = string.charCodeAt(i + 1);
          if (nextChar >= 56320 && nextChar <= 57343) {
            result += encodeHex((char - 55296) * 1024 + nextChar - 56320 + 65536);
            i++;
            continue;
          }
        }
        escapeSeq = ESCAPE_SEQUENCES[char];
        result += !escapeSeq && isPrintable(char) ? string[i] : escapeSeq || encodeHex(char);
      }
      return result;
    }
    function writeFlowSequence(state, level, object) {
      var _result = "", _tag = state.tag, index, length;
      for (index = 0, length = object.length; index < length; index += 1) {
        if (writeNode(state, level, object[index], false, false)) {
          if (index !== 0) _result += "," + (!state.condenseFlow ? " " : "");
          _result += state.dump;
        }
      }
      state.tag = _tag;
      state.dump = "[" + _result + "]";
    }
    function writeBlockSequence(state, level, object, compact) {
      var _result = "", _tag = state.tag, index, length;
      for (index = 0, length = object.length; index < length; index += 1) {
        if (writeNode(state, level + 1, object[index], true, true)) {
          if (!compact || index !== 0) {
            _result += generateNextLine(state, level);
          }
          if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
            _result += "-";
          } else {
            _result += "- ";
          }
          _result += state.dump;
        }
      }
      state.tag = _tag;
      state.dump = _result || "[]";
    }
    function writeFlowMapping(state, level, object) {
      var _result = "", _tag = state.tag, objectKeyList = Object.keys(object), index, length, objectKey, objectValue, pairBuffer;
      for (index = 0, length = objectKeyList.length; index < length; index += 1) {
        pairBuffer = "";
        if (index !== 0) pairBuffer += ", ";
        if (state.condenseFlow) pairBuffer += '"';
        objectKey = objectKeyList[index];
        objectValue = object[objectKey];
        if (!writeNode(state, level, objectKey, false, false)) {
          continue;
        }
        if (state.dump.length > 1024) pairBuffer += "? ";
        pairBuffer += state.dump + (state.condenseFlow ? '"' : "") + ":" + (state.condenseFlow ? "" : " ");
        if (!writeNode(state, level, objectValue, false, false)) {
          continue;
        }
        pairBuffer += state.dump;
        _result += pairBuffer;
      }
      state.tag = _tag;
      state.dump = "{" + _result + "}";
    }
    function writeBlockMapping(state, level, object, compact) {
      var _result = "", _tag = state.tag, objectKeyList = Object.keys(object), index, length, objectKey, objectValue, explicitPair, pairBuffer;
      if (state.sortKeys === true) {
        objectKeyList.sort();
      } else if (typeof state.sortKeys === "function") {
        objectKeyList.sort(state.sortKeys);
      } else if (state.sortKeys) {
        throw new YAMLException("sortKeys must be a boolean or a function");
      }
      for (index = 0, length = objectKeyList.length; index < length; index += 1) {
        pairBuffer = "";
        if (!compact || index !== 0) {
          pairBuffer += generateNextLine(state, level);
        }
        objectKey = objectKeyList[index];
        objectValue = object[objectKey];
        if (!writeNode(state, level + 1, objectKey, true, true, true)) {
          continue;
        }
        explicitPair = state.tag !== null && state.tag !== "?" || state.dump && state.dump.length > 1024;
        if (explicitPair) {
          if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
            pairBuffer += "?";
          } else {
            pairBuffer += "? ";
          }
        }
        pairBuffer += state.dump;
        if (explicitPair) {
          pairBuffer += generateNextLine(state, level);
        }
        if (!writeNode(state, level + 1, objectValue, true, explicitPair)) {
          continue;
        }
        if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
          pairBuffer += ":";
        } else {
          pairBuffer += ": ";
        }
        pairBuffer += state.dump;
        _result += pairBuffer;
      }
      state.tag = _tag;
      state.dump = _result || "{}";
    }
    function detectType(state, object, explicit) {
      var _result, typeList, index, length, type, style;
      typeList = explicit ? state.explicitTypes : state.implicitTypes;
      for (index = 0, length = typeList.length; index < length; index += 1) {
        type = typeList[index];
        if ((type.instanceOf || type.predicate) && (!type.instanceOf || typeof object === "object" && object instanceof type.instanceOf) && (!type.predicate || type.predicate(object))) {
          state.tag = explicit ? type.tag : "?";
          if (type.represent) {
            style = state.styleMap[type.tag] || type.defaultStyle;
            if (_toString.call(type.represent) === "[object Function]") {
              _result = type.represent(object, style);
            } else if (_hasOwnProperty.call(type.represent, style)) {
              _result = type.represent[style](object, style);
            } else {
              throw new YAMLException("!<" + type.tag + '> tag resolver accepts not "' + style + '" style');
            }
            state.dump = _result;
          }
          return true;
        }
      }
      return false;
    }
    function writeNode(state, level, object, block2, compact, iskey) {
      state.tag = null;
      state.dump = object;
      if (!detectType(state, object, false)) {
        detectType(state, object, true);
      }
      var type = _toString.call(state.dump);
      if (block2) {
        block2 = state.flowLevel < 0 || state.flowLevel > level;
      }
      var objectOrArray = type === "[object Object]" || type === "[object Array]", duplicateIndex, duplicate;
      if (objectOrArray) {
        duplicateIndex = state.duplicates.indexOf(object);
        duplicate = duplicateIndex !== -1;
      }
      if (state.tag !== null && state.tag !== "?" || duplicate || state.indent !== 2 && level > 0) {
        compact = false;
      }
      if (duplicate && state.usedDuplicates[duplicateIndex]) {
        state.dump = "*ref_" + duplicateIndex;
      } else {
        if (objectOrArray && duplicate && !state.usedDuplicates[duplicateIndex]) {
          state.usedDuplicates[duplicateIndex] = true;
        }
        if (type === "[object Object]") {
          if (block2 && Object.keys(state.dump).length !== 0) {
            writeBlockMapping(state, level, state.dump, compact);
            if (duplicate) {
              state.dump = "&ref_" + duplicateIndex + state.dump;
            }
          } else {
            writeFlowMapping(state, level, state.dump);
            if (duplicate) {
              state.dump = "&ref_" + duplicateIndex + " " + state.dump;
            }
          }
        } else if (type === "[object Array]") {
          var arrayLevel = state.noArrayIndent && level > 0 ? level - 1 : level;
          if (block2 && state.dump.length !== 0) {
            writeBlockSequence(state, arrayLevel, state.dump, compact);
            if (duplicate) {
              state.dump = "&ref_" + duplicateIndex + state.dump;
            }
          } else {
            writeFlowSequence(state, arrayLevel, state.dump);
            if (duplicate) {
              state.dump = "&ref_" + duplicateIndex + " " + state.dump;
            }
          }
        } else if (type === "[object String]") {
          if (state.tag !== "?") {
            writeScalar(state, state.dump, level, iskey);
          }
        } else {
          if (state.skipInvalid) return false;
          throw new YAMLException("unacceptable kind of an object to dump " + type);
        }
        if (state.tag !== null && state.tag !== "?") {
          state.dump = "!<" + state.tag + "> " + state.dump;
        }
      }
      return true;
    }
    function getDuplicateReferences(object, state) {
      var objects = [], duplicatesIndexes = [], index, length;
      inspectNode(object, objects, duplicatesIndexes);
      for (index = 0, length = duplicatesIndexes.length; index < length; index += 1) {
        state.duplicates.push(objects[duplicatesIndexes[index]]);
      }
      state.usedDuplicates = new Array(length);
    }
    function inspectNode(object, objects, duplicatesIndexes) {
      var objectKeyList, index, length;
      if (object !== null && typeof object === "object") {
        index = objects.indexOf(object);
        if (index !== -1) {
          if (duplicatesIndexes.indexOf(index) === -1) {
            duplicatesIndexes.push(index);
          }
        } else {
          objects.push(object);
          if (Array.isArray(object)) {
            for (index = 0, length = object.length; index < length; index += 1) {
              inspectNode(object[index], objects, duplicatesIndexes);
            }
          } else {
            objectKeyList = Object.keys(object);
            for (index = 0, length = objectKeyList.length; index < length; index += 1) {
              inspectNode(object[objectKeyList[index]], objects, duplicatesIndexes);
            }
          }
        }
      }
    }
    function dump(input, options2) {
      options2 = options2 || {};
      var state = new State(options2);
      if (!state.noRefs) getDuplicateReferences(input, state);
      if (writeNode(state, 0, input, true, true)) return state.dump + "\n";
      return "";
    }
    function safeDump(input, options2) {
      return dump(input, common.extend({ schema: DEFAULT_SAFE_SCHEMA }, options2));
    }
    module2.exports.dump = dump;
    module2.exports.safeDump = safeDump;
  }
});

// node_modules/js-yaml/lib/js-yaml.js
var require_js_yaml = __commonJS({
  "node_modules/js-yaml/lib/js-yaml.js"(exports2, module2) {
    "use strict";
    var loader = require_loader();
    var dumper = require_dumper();
    function deprecated(name) {
      return function() {
        throw new Error("Function " + name + " is deprecated and cannot be used.");
      };
    }
    module2.exports.Type = require_type();
    module2.exports.Schema = require_schema();
    module2.exports.FAILSAFE_SCHEMA = require_failsafe();
    module2.exports.JSON_SCHEMA = require_json();
    module2.exports.CORE_SCHEMA = require_core();
    module2.exports.DEFAULT_SAFE_SCHEMA = require_default_safe();
    module2.exports.DEFAULT_FULL_SCHEMA = require_default_full();
    module2.exports.load = loader.load;
    module2.exports.loadAll = loader.loadAll;
    module2.exports.safeLoad = loader.safeLoad;
    module2.exports.safeLoadAll = loader.safeLoadAll;
    module2.exports.dump = dumper.dump;
    module2.exports.safeDump = dumper.safeDump;
    module2.exports.YAMLException = require_exception();
    module2.exports.MINIMAL_SCHEMA = require_failsafe();
    module2.exports.SAFE_SCHEMA = require_default_safe();
    module2.exports.DEFAULT_SCHEMA = require_default_full();
    module2.exports.scan = deprecated("scan");
    module2.exports.parse = deprecated("parse");
    module2.exports.compose = deprecated("compose");
    module2.exports.addConstructor = deprecated("addConstructor");
  }
});

// node_modules/js-yaml/index.js
var require_js_yaml2 = __commonJS({
  "node_modules/js-yaml/index.js"(exports2, module2) {
    "use strict";
    var yaml2 = require_js_yaml();
    module2.exports = yaml2;
  }
});

// node_modules/gray-matter/lib/engines.js
var require_engines = __commonJS({
  "node_modules/gray-matter/lib/engines.js"(exports, module) {
    "use strict";
    var yaml = require_js_yaml2();
    var engines = exports = module.exports;
    engines.yaml = {
      parse: yaml.safeLoad.bind(yaml),
      stringify: yaml.safeDump.bind(yaml)
    };
    engines.json = {
      parse: JSON.parse.bind(JSON),
      stringify: function(obj, options2) {
        const opts = Object.assign({ replacer: null, space: 2 }, options2);
        return JSON.stringify(obj, opts.replacer, opts.space);
      }
    };
    engines.javascript = {
      parse: function parse(str, options, wrap) {
        try {
          if (wrap !== false) {
            str = "(function() {\nreturn " + str.trim() + ";\n}());";
          }
          return eval(str) || {};
        } catch (err) {
          if (wrap !== false && /(unexpected|identifier)/i.test(err.message)) {
            return parse(str, options, false);
          }
          throw new SyntaxError(err);
        }
      },
      stringify: function() {
        throw new Error("stringifying JavaScript is not supported");
      }
    };
  }
});

// node_modules/strip-bom-string/index.js
var require_strip_bom_string = __commonJS({
  "node_modules/strip-bom-string/index.js"(exports2, module2) {
    "use strict";
    module2.exports = function(str4) {
      if (typeof str4 === "string" && str4.charAt(0) === "\uFEFF") {
        return str4.slice(1);
      }
      return str4;
    };
  }
});

// node_modules/gray-matter/lib/utils.js
var require_utils = __commonJS({
  "node_modules/gray-matter/lib/utils.js"(exports2) {
    "use strict";
    var stripBom = require_strip_bom_string();
    var typeOf = require_kind_of();
    exports2.define = function(obj, key, val) {
      Reflect.defineProperty(obj, key, {
        enumerable: false,
        configurable: true,
        writable: true,
        value: val
      });
    };
    exports2.isBuffer = function(val) {
      return typeOf(val) === "buffer";
    };
    exports2.isObject = function(val) {
      return typeOf(val) === "object";
    };
    exports2.toBuffer = function(input) {
      return typeof input === "string" ? Buffer.from(input) : input;
    };
    exports2.toString = function(input) {
      if (exports2.isBuffer(input)) return stripBom(String(input));
      if (typeof input !== "string") {
        throw new TypeError("expected input to be a string or buffer");
      }
      return stripBom(input);
    };
    exports2.arrayify = function(val) {
      return val ? Array.isArray(val) ? val : [val] : [];
    };
    exports2.startsWith = function(str4, substr, len) {
      if (typeof len !== "number") len = substr.length;
      return str4.slice(0, len) === substr;
    };
  }
});

// node_modules/gray-matter/lib/defaults.js
var require_defaults = __commonJS({
  "node_modules/gray-matter/lib/defaults.js"(exports2, module2) {
    "use strict";
    var engines2 = require_engines();
    var utils = require_utils();
    module2.exports = function(options2) {
      const opts = Object.assign({}, options2);
      opts.delimiters = utils.arrayify(opts.delims || opts.delimiters || "---");
      if (opts.delimiters.length === 1) {
        opts.delimiters.push(opts.delimiters[0]);
      }
      opts.language = (opts.language || opts.lang || "yaml").toLowerCase();
      opts.engines = Object.assign({}, engines2, opts.parsers, opts.engines);
      return opts;
    };
  }
});

// node_modules/gray-matter/lib/engine.js
var require_engine = __commonJS({
  "node_modules/gray-matter/lib/engine.js"(exports2, module2) {
    "use strict";
    module2.exports = function(name, options2) {
      let engine2 = options2.engines[name] || options2.engines[aliase(name)];
      if (typeof engine2 === "undefined") {
        throw new Error('gray-matter engine "' + name + '" is not registered');
      }
      if (typeof engine2 === "function") {
        engine2 = { parse: engine2 };
      }
      return engine2;
    };
    function aliase(name) {
      switch (name.toLowerCase()) {
        case "js":
        case "javascript":
          return "javascript";
        case "coffee":
        case "coffeescript":
        case "cson":
          return "coffee";
        case "yaml":
        case "yml":
          return "yaml";
        default: {
          return name;
        }
      }
    }
  }
});

// node_modules/gray-matter/lib/stringify.js
var require_stringify = __commonJS({
  "node_modules/gray-matter/lib/stringify.js"(exports2, module2) {
    "use strict";
    var typeOf = require_kind_of();
    var getEngine = require_engine();
    var defaults = require_defaults();
    module2.exports = function(file, data, options2) {
      if (data == null && options2 == null) {
        switch (typeOf(file)) {
          case "object":
            data = file.data;
            options2 = {};
            break;
          case "string":
            return file;
          default: {
            throw new TypeError("expected file to be a string or object");
          }
        }
      }
      const str4 = file.content;
      const opts = defaults(options2);
      if (data == null) {
        if (!opts.data) return file;
        data = opts.data;
      }
      const language = file.language || opts.language;
      const engine2 = getEngine(language, opts);
      if (typeof engine2.stringify !== "function") {
        throw new TypeError('expected "' + language + '.stringify" to be a function');
      }
      data = Object.assign({}, file.data, data);
      const open = opts.delimiters[0];
      const close = opts.delimiters[1];
      const matter3 = engine2.stringify(data, options2).trim();
      let buf = "";
      if (matter3 !== "{}") {
        buf = newline(open) + newline(matter3) + newline(close);
      }
      if (typeof file.excerpt === "string" && file.excerpt !== "") {
        if (str4.indexOf(file.excerpt.trim()) === -1) {
          buf += newline(file.excerpt) + newline(close);
        }
      }
      return buf + newline(str4);
    };
    function newline(str4) {
      return str4.slice(-1) !== "\n" ? str4 + "\n" : str4;
    }
  }
});

// node_modules/gray-matter/lib/excerpt.js
var require_excerpt = __commonJS({
  "node_modules/gray-matter/lib/excerpt.js"(exports2, module2) {
    "use strict";
    var defaults = require_defaults();
    module2.exports = function(file, options2) {
      const opts = defaults(options2);
      if (file.data == null) {
        file.data = {};
      }
      if (typeof opts.excerpt === "function") {
        return opts.excerpt(file, opts);
      }
      const sep8 = file.data.excerpt_separator || opts.excerpt_separator;
      if (sep8 == null && (opts.excerpt === false || opts.excerpt == null)) {
        return file;
      }
      const delimiter = typeof opts.excerpt === "string" ? opts.excerpt : sep8 || opts.delimiters[0];
      const idx = file.content.indexOf(delimiter);
      if (idx !== -1) {
        file.excerpt = file.content.slice(0, idx);
      }
      return file;
    };
  }
});

// node_modules/gray-matter/lib/to-file.js
var require_to_file = __commonJS({
  "node_modules/gray-matter/lib/to-file.js"(exports2, module2) {
    "use strict";
    var typeOf = require_kind_of();
    var stringify2 = require_stringify();
    var utils = require_utils();
    module2.exports = function(file) {
      if (typeOf(file) !== "object") {
        file = { content: file };
      }
      if (typeOf(file.data) !== "object") {
        file.data = {};
      }
      if (file.contents && file.content == null) {
        file.content = file.contents;
      }
      utils.define(file, "orig", utils.toBuffer(file.content));
      utils.define(file, "language", file.language || "");
      utils.define(file, "matter", file.matter || "");
      utils.define(file, "stringify", function(data, options2) {
        if (options2 && options2.language) {
          file.language = options2.language;
        }
        return stringify2(file, data, options2);
      });
      file.content = utils.toString(file.content);
      file.isEmpty = false;
      file.excerpt = "";
      return file;
    };
  }
});

// node_modules/gray-matter/lib/parse.js
var require_parse = __commonJS({
  "node_modules/gray-matter/lib/parse.js"(exports2, module2) {
    "use strict";
    var getEngine = require_engine();
    var defaults = require_defaults();
    module2.exports = function(language, str4, options2) {
      const opts = defaults(options2);
      const engine2 = getEngine(language, opts);
      if (typeof engine2.parse !== "function") {
        throw new TypeError('expected "' + language + '.parse" to be a function');
      }
      return engine2.parse(str4, opts);
    };
  }
});

// node_modules/gray-matter/index.js
var require_gray_matter = __commonJS({
  "node_modules/gray-matter/index.js"(exports2, module2) {
    "use strict";
    var fs = __require("fs");
    var sections = require_section_matter();
    var defaults = require_defaults();
    var stringify2 = require_stringify();
    var excerpt = require_excerpt();
    var engines2 = require_engines();
    var toFile = require_to_file();
    var parse5 = require_parse();
    var utils = require_utils();
    function matter3(input, options2) {
      if (input === "") {
        return { data: {}, content: input, excerpt: "", orig: input };
      }
      let file = toFile(input);
      const cached = matter3.cache[file.content];
      if (!options2) {
        if (cached) {
          file = Object.assign({}, cached);
          file.orig = cached.orig;
          return file;
        }
        matter3.cache[file.content] = file;
      }
      return parseMatter(file, options2);
    }
    function parseMatter(file, options2) {
      const opts = defaults(options2);
      const open = opts.delimiters[0];
      const close = "\n" + opts.delimiters[1];
      let str4 = file.content;
      if (opts.language) {
        file.language = opts.language;
      }
      const openLen = open.length;
      if (!utils.startsWith(str4, open, openLen)) {
        excerpt(file, opts);
        return file;
      }
      if (str4.charAt(openLen) === open.slice(-1)) {
        return file;
      }
      str4 = str4.slice(openLen);
      const len = str4.length;
      const language = matter3.language(str4, opts);
      if (language.name) {
        file.language = language.name;
        str4 = str4.slice(language.raw.length);
      }
      let closeIndex2 = str4.indexOf(close);
      if (closeIndex2 === -1) {
        closeIndex2 = len;
      }
      file.matter = str4.slice(0, closeIndex2);
      const block2 = file.matter.replace(/^\s*#[^\n]+/gm, "").trim();
      if (block2 === "") {
        file.isEmpty = true;
        file.empty = file.content;
        file.data = {};
      } else {
        file.data = parse5(file.language, file.matter, opts);
      }
      if (closeIndex2 === len) {
        file.content = "";
      } else {
        file.content = str4.slice(closeIndex2 + close.length);
        if (file.content[0] === "\r") {
          file.content = file.content.slice(1);
        }
        if (file.content[0] === "\n") {
          file.content = file.content.slice(1);
        }
      }
      excerpt(file, opts);
      if (opts.sections === true || typeof opts.section === "function") {
        sections(file, opts.section);
      }
      return file;
    }
    matter3.engines = engines2;
    matter3.stringify = function(file, data, options2) {
      if (typeof file === "string") file = matter3(file, options2);
      return stringify2(file, data, options2);
    };
    matter3.read = function(filepath, options2) {
      const str4 = fs.readFileSync(filepath, "utf8");
      const file = matter3(str4, options2);
      file.path = filepath;
      return file;
    };
    matter3.test = function(str4, options2) {
      return utils.startsWith(str4, defaults(options2).delimiters[0]);
    };
    matter3.language = function(str4, options2) {
      const opts = defaults(options2);
      const open = opts.delimiters[0];
      if (matter3.test(str4)) {
        str4 = str4.slice(open.length);
      }
      const language = str4.slice(0, str4.search(/\r?\n/));
      return {
        raw: language,
        name: language ? language.trim() : ""
      };
    };
    matter3.cache = {};
    matter3.clearCache = function() {
      matter3.cache = {};
    };
    module2.exports = matter3;
  }
});

// node_modules/picomatch/lib/constants.js
var require_constants = __commonJS({
  "node_modules/picomatch/lib/constants.js"(exports2, module2) {
    "use strict";
    var WIN_SLASH = "\\\\/";
    var WIN_NO_SLASH = `[^${WIN_SLASH}]`;
    var DEFAULT_MAX_EXTGLOB_RECURSION = 0;
    var DOT_LITERAL = "\\.";
    var PLUS_LITERAL = "\\+";
    var QMARK_LITERAL = "\\?";
    var SLASH_LITERAL = "\\/";
    var ONE_CHAR = "(?=.)";
    var QMARK = "[^/]";
    var END_ANCHOR = `(?:${SLASH_LITERAL}|$)`;
    var START_ANCHOR = `(?:^|${SLASH_LITERAL})`;
    var DOTS_SLASH = `${DOT_LITERAL}{1,2}${END_ANCHOR}`;
    var NO_DOT = `(?!${DOT_LITERAL})`;
    var NO_DOTS = `(?!${START_ANCHOR}${DOTS_SLASH})`;
    var NO_DOT_SLASH = `(?!${DOT_LITERAL}{0,1}${END_ANCHOR})`;
    var NO_DOTS_SLASH = `(?!${DOTS_SLASH})`;
    var QMARK_NO_DOT = `[^.${SLASH_LITERAL}]`;
    var STAR = `${QMARK}*?`;
    var SEP = "/";
    var POSIX_CHARS = {
      DOT_LITERAL,
      PLUS_LITERAL,
      QMARK_LITERAL,
      SLASH_LITERAL,
      ONE_CHAR,
      QMARK,
      END_ANCHOR,
      DOTS_SLASH,
      NO_DOT,
      NO_DOTS,
      NO_DOT_SLASH,
      NO_DOTS_SLASH,
      QMARK_NO_DOT,
      STAR,
      START_ANCHOR,
      SEP
    };
    var WINDOWS_CHARS = {
      ...POSIX_CHARS,
      SLASH_LITERAL: `[${WIN_SLASH}]`,
      QMARK: WIN_NO_SLASH,
      STAR: `${WIN_NO_SLASH}*?`,
      DOTS_SLASH: `${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$)`,
      NO_DOT: `(?!${DOT_LITERAL})`,
      NO_DOTS: `(?!(?:^|[${WIN_SLASH}])${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
      NO_DOT_SLASH: `(?!${DOT_LITERAL}{0,1}(?:[${WIN_SLASH}]|$))`,
      NO_DOTS_SLASH: `(?!${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
      QMARK_NO_DOT: `[^.${WIN_SLASH}]`,
      START_ANCHOR: `(?:^|[${WIN_SLASH}])`,
      END_ANCHOR: `(?:[${WIN_SLASH}]|$)`,
      SEP: "\\"
    };
    var POSIX_REGEX_SOURCE = {
      __proto__: null,
      alnum: "a-zA-Z0-9",
      alpha: "a-zA-Z",
      ascii: "\\x00-\\x7F",
      blank: " \\t",
      cntrl: "\\x00-\\x1F\\x7F",
      digit: "0-9",
      graph: "\\x21-\\x7E",
      lower: "a-z",
      print: "\\x20-\\x7E ",
      punct: "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
      space: " \\t\\r\\n\\v\\f",
      upper: "A-Z",
      word: "A-Za-z0-9_",
      xdigit: "A-Fa-f0-9"
    };
    module2.exports = {
      DEFAULT_MAX_EXTGLOB_RECURSION,
      MAX_LENGTH: 1024 * 64,
      POSIX_REGEX_SOURCE,
      // regular expressions
      REGEX_BACKSLASH: /\\(?![*+?^${}(|)[\]])/g,
      REGEX_NON_SPECIAL_CHARS: /^[^@![\].,$*+?^{}()|\\/]+/,
      REGEX_SPECIAL_CHARS: /[-*+?.^${}(|)[\]]/,
      REGEX_SPECIAL_CHARS_BACKREF: /(\\?)((\W)(\3*))/g,
      REGEX_SPECIAL_CHARS_GLOBAL: /([-*+?.^${}(|)[\]])/g,
      REGEX_REMOVE_BACKSLASH: /(?:\[.*?[^\\]\]|\\(?=.))/g,
      // Replace globs with equivalent patterns to reduce parsing time.
      REPLACEMENTS: {
        __proto__: null,
        "***": "*",
        "**/**": "**",
        "**/**/**": "**"
      },
      // Digits
      CHAR_0: 48,
      /* 0 */
      CHAR_9: 57,
      /* 9 */
      // Alphabet chars.
      CHAR_UPPERCASE_A: 65,
      /* A */
      CHAR_LOWERCASE_A: 97,
      /* a */
      CHAR_UPPERCASE_Z: 90,
      /* Z */
      CHAR_LOWERCASE_Z: 122,
      /* z */
      CHAR_LEFT_PARENTHESES: 40,
      /* ( */
      CHAR_RIGHT_PARENTHESES: 41,
      /* ) */
      CHAR_ASTERISK: 42,
      /* * */
      // Non-alphabetic chars.
      CHAR_AMPERSAND: 38,
      /* & */
      CHAR_AT: 64,
      /* @ */
      CHAR_BACKWARD_SLASH: 92,
      /* \ */
      CHAR_CARRIAGE_RETURN: 13,
      /* \r */
      CHAR_CIRCUMFLEX_ACCENT: 94,
      /* ^ */
      CHAR_COLON: 58,
      /* : */
      CHAR_COMMA: 44,
      /* , */
      CHAR_DOT: 46,
      /* . */
      CHAR_DOUBLE_QUOTE: 34,
      /* " */
      CHAR_EQUAL: 61,
      /* = */
      CHAR_EXCLAMATION_MARK: 33,
      /* ! */
      CHAR_FORM_FEED: 12,
      /* \f */
      CHAR_FORWARD_SLASH: 47,
      /* / */
      CHAR_GRAVE_ACCENT: 96,
      /* ` */
      CHAR_HASH: 35,
      /* # */
      CHAR_HYPHEN_MINUS: 45,
      /* - */
      CHAR_LEFT_ANGLE_BRACKET: 60,
      /* < */
      CHAR_LEFT_CURLY_BRACE: 123,
      /* { */
      CHAR_LEFT_SQUARE_BRACKET: 91,
      /* [ */
      CHAR_LINE_FEED: 10,
      /* \n */
      CHAR_NO_BREAK_SPACE: 160,
      /* \u00A0 */
      CHAR_PERCENT: 37,
      /* % */
      CHAR_PLUS: 43,
      /* + */
      CHAR_QUESTION_MARK: 63,
      /* ? */
      CHAR_RIGHT_ANGLE_BRACKET: 62,
      /* > */
      CHAR_RIGHT_CURLY_BRACE: 125,
      /* } */
      CHAR_RIGHT_SQUARE_BRACKET: 93,
      /* ] */
      CHAR_SEMICOLON: 59,
      /* ; */
      CHAR_SINGLE_QUOTE: 39,
      /* ' */
      CHAR_SPACE: 32,
      /*   */
      CHAR_TAB: 9,
      /* \t */
      CHAR_UNDERSCORE: 95,
      /* _ */
      CHAR_VERTICAL_LINE: 124,
      /* | */
      CHAR_ZERO_WIDTH_NOBREAK_SPACE: 65279,
      /* \uFEFF */
      /**
       * Create EXTGLOB_CHARS
       */
      extglobChars(chars) {
        return {
          "!": { type: "negate", open: "(?:(?!(?:", close: `))${chars.STAR})` },
          "?": { type: "qmark", open: "(?:", close: ")?" },
          "+": { type: "plus", open: "(?:", close: ")+" },
          "*": { type: "star", open: "(?:", close: ")*" },
          "@": { type: "at", open: "(?:", close: ")" }
        };
      },
      /**
       * Create GLOB_CHARS
       */
      globChars(win32) {
        return win32 === true ? WINDOWS_CHARS : POSIX_CHARS;
      }
    };
  }
});

// node_modules/picomatch/lib/utils.js
var require_utils2 = __commonJS({
  "node_modules/picomatch/lib/utils.js"(exports2) {
    "use strict";
    var {
      REGEX_BACKSLASH,
      REGEX_REMOVE_BACKSLASH,
      REGEX_SPECIAL_CHARS,
      REGEX_SPECIAL_CHARS_GLOBAL
    } = require_constants();
    exports2.isObject = (val) => val !== null && typeof val === "object" && !Array.isArray(val);
    exports2.hasRegexChars = (str4) => REGEX_SPECIAL_CHARS.test(str4);
    exports2.isRegexChar = (str4) => str4.length === 1 && exports2.hasRegexChars(str4);
    exports2.escapeRegex = (str4) => str4.replace(REGEX_SPECIAL_CHARS_GLOBAL, "\\$1");
    exports2.toPosixSlashes = (str4) => str4.replace(REGEX_BACKSLASH, "/");
    exports2.isWindows = () => {
      if (typeof navigator !== "undefined" && navigator.platform) {
        const platform = navigator.platform.toLowerCase();
        return platform === "win32" || platform === "windows";
      }
      if (typeof process !== "undefined" && process.platform) {
        return process.platform === "win32";
      }
      return false;
    };
    exports2.removeBackslashes = (str4) => {
      return str4.replace(REGEX_REMOVE_BACKSLASH, (match) => {
        return match === "\\" ? "" : match;
      });
    };
    exports2.escapeLast = (input, char, lastIdx) => {
      const idx = input.lastIndexOf(char, lastIdx);
      if (idx === -1) return input;
      if (input[idx - 1] === "\\") return exports2.escapeLast(input, char, idx - 1);
      return `${input.slice(0, idx)}\\${input.slice(idx)}`;
    };
    exports2.removePrefix = (input, state = {}) => {
      let output = input;
      if (output.startsWith("./")) {
        output = output.slice(2);
        state.prefix = "./";
      }
      return output;
    };
    exports2.wrapOutput = (input, state = {}, options2 = {}) => {
      const prepend = options2.contains ? "" : "^";
      const append = options2.contains ? "" : "$";
      let output = `${prepend}(?:${input})${append}`;
      if (state.negated === true) {
        output = `(?:^(?!${output}).*$)`;
      }
      return output;
    };
    exports2.basename = (path, { windows } = {}) => {
      const segs = path.split(windows ? /[\\/]/ : "/");
      const last = segs[segs.length - 1];
      if (last === "") {
        return segs[segs.length - 2];
      }
      return last;
    };
  }
});

// node_modules/picomatch/lib/scan.js
var require_scan = __commonJS({
  "node_modules/picomatch/lib/scan.js"(exports2, module2) {
    "use strict";
    var utils = require_utils2();
    var {
      CHAR_ASTERISK,
      /* * */
      CHAR_AT,
      /* @ */
      CHAR_BACKWARD_SLASH,
      /* \ */
      CHAR_COMMA,
      /* , */
      CHAR_DOT,
      /* . */
      CHAR_EXCLAMATION_MARK,
      /* ! */
      CHAR_FORWARD_SLASH,
      /* / */
      CHAR_LEFT_CURLY_BRACE,
      /* { */
      CHAR_LEFT_PARENTHESES,
      /* ( */
      CHAR_LEFT_SQUARE_BRACKET,
      /* [ */
      CHAR_PLUS,
      /* + */
      CHAR_QUESTION_MARK,
      /* ? */
      CHAR_RIGHT_CURLY_BRACE,
      /* } */
      CHAR_RIGHT_PARENTHESES,
      /* ) */
      CHAR_RIGHT_SQUARE_BRACKET
      /* ] */
    } = require_constants();
    var isPathSeparator = (code) => {
      return code === CHAR_FORWARD_SLASH || code === CHAR_BACKWARD_SLASH;
    };
    var depth = (token) => {
      if (token.isPrefix !== true) {
        token.depth = token.isGlobstar ? Infinity : 1;
      }
    };
    var scan = (input, options2) => {
      const opts = options2 || {};
      const length = input.length - 1;
      const scanToEnd = opts.parts === true || opts.tokens === true || opts.scanToEnd === true;
      const slashes = [];
      const tokens = [];
      const parts = [];
      let str4 = input;
      let index = -1;
      let start = 0;
      let lastIndex = 0;
      let isBrace = false;
      let isBracket = false;
      let isGlob2 = false;
      let isExtglob = false;
      let isGlobstar = false;
      let braceEscaped = false;
      let backslashes = false;
      let negated = false;
      let negatedExtglob = false;
      let finished = false;
      let braces = 0;
      let prev;
      let code;
      let token = { value: "", depth: 0, isGlob: false };
      const eos = () => index >= length;
      const peek = () => str4.charCodeAt(index + 1);
      const advance = () => {
        prev = code;
        return str4.charCodeAt(++index);
      };
      while (index < length) {
        code = advance();
        let next2;
        if (code === CHAR_BACKWARD_SLASH) {
          backslashes = token.backslashes = true;
          code = advance();
          if (code === CHAR_LEFT_CURLY_BRACE) {
            braceEscaped = true;
          }
          continue;
        }
        if (braceEscaped === true || code === CHAR_LEFT_CURLY_BRACE) {
          braces++;
          while (eos() !== true && (code = advance())) {
            if (code === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }
            if (code === CHAR_LEFT_CURLY_BRACE) {
              braces++;
              continue;
            }
            if (braceEscaped !== true && code === CHAR_DOT && (code = advance()) === CHAR_DOT) {
              isBrace = token.isBrace = true;
              isGlob2 = token.isGlob = true;
              finished = true;
              if (scanToEnd === true) {
                continue;
              }
              break;
            }
            if (braceEscaped !== true && code === CHAR_COMMA) {
              isBrace = token.isBrace = true;
              isGlob2 = token.isGlob = true;
              finished = true;
              if (scanToEnd === true) {
                continue;
              }
              break;
            }
            if (code === CHAR_RIGHT_CURLY_BRACE) {
              braces--;
              if (braces === 0) {
                braceEscaped = false;
                isBrace = token.isBrace = true;
                finished = true;
                break;
              }
            }
          }
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_FORWARD_SLASH) {
          slashes.push(index);
          tokens.push(token);
          token = { value: "", depth: 0, isGlob: false };
          if (finished === true) continue;
          if (prev === CHAR_DOT && index === start + 1) {
            start += 2;
            continue;
          }
          lastIndex = index + 1;
          continue;
        }
        if (opts.noext !== true) {
          const isExtglobChar = code === CHAR_PLUS || code === CHAR_AT || code === CHAR_ASTERISK || code === CHAR_QUESTION_MARK || code === CHAR_EXCLAMATION_MARK;
          if (isExtglobChar === true && peek() === CHAR_LEFT_PARENTHESES) {
            isGlob2 = token.isGlob = true;
            isExtglob = token.isExtglob = true;
            finished = true;
            if (code === CHAR_EXCLAMATION_MARK && index === start) {
              negatedExtglob = true;
            }
            if (scanToEnd === true) {
              let parens = 0;
              while (eos() !== true && (code = advance())) {
                if (code === CHAR_BACKWARD_SLASH) {
                  backslashes = token.backslashes = true;
                  advance();
                  continue;
                }
                if (code === CHAR_LEFT_PARENTHESES) {
                  parens++;
                  continue;
                }
                if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
                  finished = true;
                  break;
                }
              }
              continue;
            }
            break;
          }
        }
        if (code === CHAR_ASTERISK) {
          if (prev === CHAR_ASTERISK) isGlobstar = token.isGlobstar = true;
          isGlob2 = token.isGlob = true;
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_QUESTION_MARK) {
          isGlob2 = token.isGlob = true;
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_LEFT_SQUARE_BRACKET) {
          while (eos() !== true && (next2 = advance())) {
            if (next2 === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }
            if (next2 === CHAR_RIGHT_SQUARE_BRACKET) {
              isBracket = token.isBracket = true;
              isGlob2 = token.isGlob = true;
              finished = true;
              break;
            }
          }
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (opts.nonegate !== true && code === CHAR_EXCLAMATION_MARK && index === start) {
          negated = token.negated = true;
          start++;
          continue;
        }
        if (opts.noparen !== true && code === CHAR_LEFT_PARENTHESES) {
          isGlob2 = token.isGlob = true;
          if (scanToEnd === true) {
            let parens = 1;
            while (eos() !== true && (code = advance())) {
              if (code === CHAR_BACKWARD_SLASH) {
                backslashes = token.backslashes = true;
                advance();
                continue;
              }
              if (code === CHAR_LEFT_PARENTHESES) {
                parens++;
                continue;
              }
              if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
                finished = true;
                break;
              }
            }
            continue;
          }
          break;
        }
        if (isGlob2 === true) {
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
      }
      if (opts.noext === true) {
        isExtglob = false;
        isGlob2 = false;
      }
      let base = str4;
      let prefix = "";
      let glob = "";
      if (start > 0) {
        prefix = str4.slice(0, start);
        str4 = str4.slice(start);
        lastIndex -= start;
      }
      if (base && isGlob2 === true && lastIndex > 0) {
        base = str4.slice(0, lastIndex);
        glob = str4.slice(lastIndex);
      } else if (isGlob2 === true) {
        base = "";
        glob = str4;
      } else {
        base = str4;
      }
      if (base && base !== "" && base !== "/" && base !== str4) {
        if (isPathSeparator(base.charCodeAt(base.length - 1))) {
          base = base.slice(0, -1);
        }
      }
      if (opts.unescape === true) {
        if (glob) glob = utils.removeBackslashes(glob);
        if (base && backslashes === true) {
          base = utils.removeBackslashes(base);
        }
      }
      const state = {
        prefix,
        input,
        start,
        base,
        glob,
        isBrace,
        isBracket,
        isGlob: isGlob2,
        isExtglob,
        isGlobstar,
        negated,
        negatedExtglob
      };
      if (opts.tokens === true) {
        state.maxDepth = 0;
        if (!isPathSeparator(code)) {
          tokens.push(token);
        }
        state.tokens = tokens;
      }
      if (opts.parts === true || opts.tokens === true) {
        let prevIndex;
        for (let idx = 0; idx < slashes.length; idx++) {
          const n2 = prevIndex !== void 0 ? prevIndex + 1 : start;
          const i = slashes[idx];
          const value2 = input.slice(n2, i);
          if (opts.tokens) {
            if (idx === 0 && start !== 0) {
              tokens[idx].isPrefix = true;
              tokens[idx].value = prefix;
            } else {
              tokens[idx].value = value2;
            }
            depth(tokens[idx]);
            state.maxDepth += tokens[idx].depth;
          }
          if (i >= start) {
            parts.push(value2);
            prevIndex = i;
          }
        }
        const n = prevIndex !== void 0 ? prevIndex + 1 : start;
        const value = input.slice(n);
        parts.push(value);
        if (opts.tokens && prevIndex && prevIndex + 1 < input.length) {
          tokens[tokens.length - 1].value = value;
          depth(tokens[tokens.length - 1]);
          state.maxDepth += tokens[tokens.length - 1].depth;
        }
        state.slashes = slashes;
        state.parts = parts;
      }
      return state;
    };
    module2.exports = scan;
  }
});

// node_modules/picomatch/lib/parse.js
var require_parse2 = __commonJS({
  "node_modules/picomatch/lib/parse.js"(exports2, module2) {
    "use strict";
    var constants6 = require_constants();
    var utils = require_utils2();
    var {
      MAX_LENGTH,
      POSIX_REGEX_SOURCE,
      REGEX_NON_SPECIAL_CHARS,
      REGEX_SPECIAL_CHARS_BACKREF,
      REPLACEMENTS
    } = constants6;
    var expandRange = (args, options2) => {
      if (typeof options2.expandRange === "function") {
        return options2.expandRange(...args, options2);
      }
      args.sort();
      const value = `[${args.join("-")}]`;
      try {
        new RegExp(value);
      } catch (ex) {
        return args.map((v) => utils.escapeRegex(v)).join("..");
      }
      return value;
    };
    var syntaxError = (type, char) => {
      return `Missing ${type}: "${char}" - use "\\\\${char}" to match literal characters`;
    };
    var splitTopLevel = (input) => {
      const parts = [];
      let bracket = 0;
      let paren = 0;
      let quote = 0;
      let value = "";
      let escaped = false;
      for (const ch of input) {
        if (escaped === true) {
          value += ch;
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          value += ch;
          escaped = true;
          continue;
        }
        if (ch === '"') {
          quote = quote === 1 ? 0 : 1;
          value += ch;
          continue;
        }
        if (quote === 0) {
          if (ch === "[") {
            bracket++;
          } else if (ch === "]" && bracket > 0) {
            bracket--;
          } else if (bracket === 0) {
            if (ch === "(") {
              paren++;
            } else if (ch === ")" && paren > 0) {
              paren--;
            } else if (ch === "|" && paren === 0) {
              parts.push(value);
              value = "";
              continue;
            }
          }
        }
        value += ch;
      }
      parts.push(value);
      return parts;
    };
    var isPlainBranch = (branch) => {
      let escaped = false;
      for (const ch of branch) {
        if (escaped === true) {
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          escaped = true;
          continue;
        }
        if (/[?*+@!()[\]{}]/.test(ch)) {
          return false;
        }
      }
      return true;
    };
    var normalizeSimpleBranch = (branch) => {
      let value = branch.trim();
      let changed = true;
      while (changed === true) {
        changed = false;
        if (/^@\([^\\()[\]{}|]+\)$/.test(value)) {
          value = value.slice(2, -1);
          changed = true;
        }
      }
      if (!isPlainBranch(value)) {
        return;
      }
      return value.replace(/\\(.)/g, "$1");
    };
    var hasRepeatedCharPrefixOverlap = (branches) => {
      const values = branches.map(normalizeSimpleBranch).filter(Boolean);
      for (let i = 0; i < values.length; i++) {
        for (let j = i + 1; j < values.length; j++) {
          const a = values[i];
          const b = values[j];
          const char = a[0];
          if (!char || a !== char.repeat(a.length) || b !== char.repeat(b.length)) {
            continue;
          }
          if (a === b || a.startsWith(b) || b.startsWith(a)) {
            return true;
          }
        }
      }
      return false;
    };
    var parseRepeatedExtglob = (pattern, requireEnd = true) => {
      if (pattern[0] !== "+" && pattern[0] !== "*" || pattern[1] !== "(") {
        return;
      }
      let bracket = 0;
      let paren = 0;
      let quote = 0;
      let escaped = false;
      for (let i = 1; i < pattern.length; i++) {
        const ch = pattern[i];
        if (escaped === true) {
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          escaped = true;
          continue;
        }
        if (ch === '"') {
          quote = quote === 1 ? 0 : 1;
          continue;
        }
        if (quote === 1) {
          continue;
        }
        if (ch === "[") {
          bracket++;
          continue;
        }
        if (ch === "]" && bracket > 0) {
          bracket--;
          continue;
        }
        if (bracket > 0) {
          continue;
        }
        if (ch === "(") {
          paren++;
          continue;
        }
        if (ch === ")") {
          paren--;
          if (paren === 0) {
            if (requireEnd === true && i !== pattern.length - 1) {
              return;
            }
            return {
              type: pattern[0],
              body: pattern.slice(2, i),
              end: i
            };
          }
        }
      }
    };
    var buildCharClassStar = (chars) => {
      const source = chars.length === 1 ? utils.escapeRegex(chars[0]) : `[${chars.map((ch) => utils.escapeRegex(ch)).join("")}]`;
      return `${source}*`;
    };
    var getStarExtglobSequenceChars = (pattern) => {
      let index = 0;
      const chars = [];
      while (index < pattern.length) {
        const match = parseRepeatedExtglob(pattern.slice(index), false);
        if (!match || match.type !== "*") {
          return;
        }
        const branches = splitTopLevel(match.body).map((branch2) => branch2.trim());
        if (branches.length !== 1) {
          return;
        }
        const branch = normalizeSimpleBranch(branches[0]);
        if (!branch || branch.length !== 1) {
          return;
        }
        chars.push(branch);
        index += match.end + 1;
      }
      if (chars.length < 1) {
        return;
      }
      return chars;
    };
    var repeatedExtglobRecursion = (pattern) => {
      let depth = 0;
      let value = pattern.trim();
      let match = parseRepeatedExtglob(value);
      while (match) {
        depth++;
        value = match.body.trim();
        match = parseRepeatedExtglob(value);
      }
      return depth;
    };
    var analyzeRepeatedExtglob = (body, options2) => {
      if (options2.maxExtglobRecursion === false) {
        return { risky: false };
      }
      const max = typeof options2.maxExtglobRecursion === "number" ? options2.maxExtglobRecursion : constants6.DEFAULT_MAX_EXTGLOB_RECURSION;
      const branches = splitTopLevel(body).map((branch) => branch.trim());
      if (branches.length > 1) {
        if (branches.some((branch) => branch === "") || branches.some((branch) => /^[*?]+$/.test(branch)) || hasRepeatedCharPrefixOverlap(branches)) {
          return { risky: true };
        }
      }
      const safeChars = [];
      let sawStarSequence = false;
      let combinable = true;
      for (const branch of branches) {
        const chars = getStarExtglobSequenceChars(branch);
        if (chars) {
          sawStarSequence = true;
          safeChars.push(...chars);
          continue;
        }
        const literal = normalizeSimpleBranch(branch);
        if (literal && literal.length === 1) {
          safeChars.push(literal);
          continue;
        }
        combinable = false;
        if (repeatedExtglobRecursion(branch) > max) {
          return { risky: true };
        }
      }
      if (sawStarSequence) {
        return combinable ? { risky: true, safeOutput: buildCharClassStar([...new Set(safeChars)]) } : { risky: true };
      }
      return { risky: false };
    };
    var parse5 = (input, options2) => {
      if (typeof input !== "string") {
        throw new TypeError("Expected a string");
      }
      input = REPLACEMENTS[input] || input;
      const opts = { ...options2 };
      const max = typeof opts.maxLength === "number" ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
      let len = input.length;
      if (len > max) {
        throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
      }
      const bos = { type: "bos", value: "", output: opts.prepend || "" };
      const tokens = [bos];
      const capture = opts.capture ? "" : "?:";
      const PLATFORM_CHARS = constants6.globChars(opts.windows);
      const EXTGLOB_CHARS = constants6.extglobChars(PLATFORM_CHARS);
      const {
        DOT_LITERAL,
        PLUS_LITERAL,
        SLASH_LITERAL,
        ONE_CHAR,
        DOTS_SLASH,
        NO_DOT,
        NO_DOT_SLASH,
        NO_DOTS_SLASH,
        QMARK,
        QMARK_NO_DOT,
        STAR,
        START_ANCHOR
      } = PLATFORM_CHARS;
      const globstar = (opts2) => {
        return `(${capture}(?:(?!${START_ANCHOR}${opts2.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
      };
      const nodot = opts.dot ? "" : NO_DOT;
      const qmarkNoDot = opts.dot ? QMARK : QMARK_NO_DOT;
      let star = opts.bash === true ? globstar(opts) : STAR;
      if (opts.capture) {
        star = `(${star})`;
      }
      if (typeof opts.noext === "boolean") {
        opts.noextglob = opts.noext;
      }
      const state = {
        input,
        index: -1,
        start: 0,
        dot: opts.dot === true,
        consumed: "",
        output: "",
        prefix: "",
        backtrack: false,
        negated: false,
        brackets: 0,
        braces: 0,
        parens: 0,
        quotes: 0,
        globstar: false,
        tokens
      };
      input = utils.removePrefix(input, state);
      len = input.length;
      const extglobs = [];
      const braces = [];
      const stack = [];
      let prev = bos;
      let value;
      const eos = () => state.index === len - 1;
      const peek = state.peek = (n = 1) => input[state.index + n];
      const advance = state.advance = () => input[++state.index] || "";
      const remaining = () => input.slice(state.index + 1);
      const consume = (value2 = "", num = 0) => {
        state.consumed += value2;
        state.index += num;
      };
      const append = (token) => {
        state.output += token.output != null ? token.output : token.value;
        consume(token.value);
      };
      const negate = () => {
        let count = 1;
        while (peek() === "!" && (peek(2) !== "(" || peek(3) === "?")) {
          advance();
          state.start++;
          count++;
        }
        if (count % 2 === 0) {
          return false;
        }
        state.negated = true;
        state.start++;
        return true;
      };
      const increment = (type) => {
        state[type]++;
        stack.push(type);
      };
      const decrement = (type) => {
        state[type]--;
        stack.pop();
      };
      const push = (tok) => {
        if (prev.type === "globstar") {
          const isBrace = state.braces > 0 && (tok.type === "comma" || tok.type === "brace");
          const isExtglob = tok.extglob === true || extglobs.length && (tok.type === "pipe" || tok.type === "paren");
          if (tok.type !== "slash" && tok.type !== "paren" && !isBrace && !isExtglob) {
            state.output = state.output.slice(0, -prev.output.length);
            prev.type = "star";
            prev.value = "*";
            prev.output = star;
            state.output += prev.output;
          }
        }
        if (extglobs.length && tok.type !== "paren") {
          extglobs[extglobs.length - 1].inner += tok.value;
        }
        if (tok.value || tok.output) append(tok);
        if (prev && prev.type === "text" && tok.type === "text") {
          prev.output = (prev.output || prev.value) + tok.value;
          prev.value += tok.value;
          return;
        }
        tok.prev = prev;
        tokens.push(tok);
        prev = tok;
      };
      const extglobOpen = (type, value2) => {
        const token = { ...EXTGLOB_CHARS[value2], conditions: 1, inner: "" };
        token.prev = prev;
        token.parens = state.parens;
        token.output = state.output;
        token.startIndex = state.index;
        token.tokensIndex = tokens.length;
        const output = (opts.capture ? "(" : "") + token.open;
        increment("parens");
        push({ type, value: value2, output: state.output ? "" : ONE_CHAR });
        push({ type: "paren", extglob: true, value: advance(), output });
        extglobs.push(token);
      };
      const extglobClose = (token) => {
        const literal = input.slice(token.startIndex, state.index + 1);
        const body = input.slice(token.startIndex + 2, state.index);
        const analysis = analyzeRepeatedExtglob(body, opts);
        if ((token.type === "plus" || token.type === "star") && analysis.risky) {
          const safeOutput = analysis.safeOutput ? (token.output ? "" : ONE_CHAR) + (opts.capture ? `(${analysis.safeOutput})` : analysis.safeOutput) : void 0;
          const open = tokens[token.tokensIndex];
          open.type = "text";
          open.value = literal;
          open.output = safeOutput || utils.escapeRegex(literal);
          for (let i = token.tokensIndex + 1; i < tokens.length; i++) {
            tokens[i].value = "";
            tokens[i].output = "";
            delete tokens[i].suffix;
          }
          state.output = token.output + open.output;
          state.backtrack = true;
          push({ type: "paren", extglob: true, value, output: "" });
          decrement("parens");
          return;
        }
        let output = token.close + (opts.capture ? ")" : "");
        let rest;
        if (token.type === "negate") {
          let extglobStar = star;
          if (token.inner && token.inner.length > 1 && token.inner.includes("/")) {
            extglobStar = globstar(opts);
          }
          if (extglobStar !== star || eos() || /^\)+$/.test(remaining())) {
            output = token.close = `)$))${extglobStar}`;
          }
          if (token.inner.includes("*") && (rest = remaining()) && /^\.[^\\/.]+$/.test(rest)) {
            const expression = parse5(rest, { ...options2, fastpaths: false }).output;
            output = token.close = `)${expression})${extglobStar})`;
          }
          if (token.prev.type === "bos") {
            state.negatedExtglob = true;
          }
        }
        push({ type: "paren", extglob: true, value, output });
        decrement("parens");
      };
      if (opts.fastpaths !== false && !/(^[*!]|[/()[\]{}"])/.test(input)) {
        let backslashes = false;
        let output = input.replace(REGEX_SPECIAL_CHARS_BACKREF, (m, esc, chars, first, rest, index) => {
          if (first === "\\") {
            backslashes = true;
            return m;
          }
          if (first === "?") {
            if (esc) {
              return esc + first + (rest ? QMARK.repeat(rest.length) : "");
            }
            if (index === 0) {
              return qmarkNoDot + (rest ? QMARK.repeat(rest.length) : "");
            }
            return QMARK.repeat(chars.length);
          }
          if (first === ".") {
            return DOT_LITERAL.repeat(chars.length);
          }
          if (first === "*") {
            if (esc) {
              return esc + first + (rest ? star : "");
            }
            return star;
          }
          return esc ? m : `\\${m}`;
        });
        if (backslashes === true) {
          if (opts.unescape === true) {
            output = output.replace(/\\/g, "");
          } else {
            output = output.replace(/\\+/g, (m) => {
              return m.length % 2 === 0 ? "\\\\" : m ? "\\" : "";
            });
          }
        }
        if (output === input && opts.contains === true) {
          state.output = input;
          return state;
        }
        state.output = utils.wrapOutput(output, state, options2);
        return state;
      }
      while (!eos()) {
        value = advance();
        if (value === "\0") {
          continue;
        }
        if (value === "\\") {
          const next2 = peek();
          if (next2 === "/" && opts.bash !== true) {
            continue;
          }
          if (next2 === "." || next2 === ";") {
            continue;
          }
          if (!next2) {
            value += "\\";
            push({ type: "text", value });
            continue;
          }
          const match = /^\\+/.exec(remaining());
          let slashes = 0;
          if (match && match[0].length > 2) {
            slashes = match[0].length;
            state.index += slashes;
            if (slashes % 2 !== 0) {
              value += "\\";
            }
          }
          if (opts.unescape === true) {
            value = advance();
          } else {
            value += advance();
          }
          if (state.brackets === 0) {
            push({ type: "text", value });
            continue;
          }
        }
        if (state.brackets > 0 && (value !== "]" || prev.value === "[" || prev.value === "[^")) {
          if (opts.posix !== false && value === ":") {
            const inner = prev.value.slice(1);
            if (inner.includes("[")) {
              prev.posix = true;
              if (inner.includes(":")) {
                const idx = prev.value.lastIndexOf("[");
                const pre = prev.value.slice(0, idx);
                const rest2 = prev.value.slice(idx + 2);
                const posix = POSIX_REGEX_SOURCE[rest2];
                if (posix) {
                  prev.value = pre + posix;
                  state.backtrack = true;
                  advance();
                  if (!bos.output && tokens.indexOf(prev) === 1) {
                    bos.output = ONE_CHAR;
                  }
                  continue;
                }
              }
            }
          }
          if (value === "[" && peek() !== ":" || value === "-" && peek() === "]") {
            value = `\\${value}`;
          }
          if (value === "]" && (prev.value === "[" || prev.value === "[^")) {
            value = `\\${value}`;
          }
          if (opts.posix === true && value === "!" && prev.value === "[") {
            value = "^";
          }
          prev.value += value;
          append({ value });
          continue;
        }
        if (state.quotes === 1 && value !== '"') {
          value = utils.escapeRegex(value);
          prev.value += value;
          append({ value });
          continue;
        }
        if (value === '"') {
          state.quotes = state.quotes === 1 ? 0 : 1;
          if (opts.keepQuotes === true) {
            push({ type: "text", value });
          }
          continue;
        }
        if (value === "(") {
          increment("parens");
          push({ type: "paren", value });
          continue;
        }
        if (value === ")") {
          if (state.parens === 0 && opts.strictBrackets === true) {
            throw new SyntaxError(syntaxError("opening", "("));
          }
          const extglob = extglobs[extglobs.length - 1];
          if (extglob && state.parens === extglob.parens + 1) {
            extglobClose(extglobs.pop());
            continue;
          }
          push({ type: "paren", value, output: state.parens ? ")" : "\\)" });
          decrement("parens");
          continue;
        }
        if (value === "[") {
          if (opts.nobracket === true || !remaining().includes("]")) {
            if (opts.nobracket !== true && opts.strictBrackets === true) {
              throw new SyntaxError(syntaxError("closing", "]"));
            }
            value = `\\${value}`;
          } else {
            increment("brackets");
          }
          push({ type: "bracket", value });
          continue;
        }
        if (value === "]") {
          if (opts.nobracket === true || prev && prev.type === "bracket" && prev.value.length === 1) {
            push({ type: "text", value, output: `\\${value}` });
            continue;
          }
          if (state.brackets === 0) {
            if (opts.strictBrackets === true) {
              throw new SyntaxError(syntaxError("opening", "["));
            }
            push({ type: "text", value, output: `\\${value}` });
            continue;
          }
          decrement("brackets");
          const prevValue = prev.value.slice(1);
          if (prev.posix !== true && prevValue[0] === "^" && !prevValue.includes("/")) {
            value = `/${value}`;
          }
          prev.value += value;
          append({ value });
          if (opts.literalBrackets === false || utils.hasRegexChars(prevValue)) {
            continue;
          }
          const escaped = utils.escapeRegex(prev.value);
          state.output = state.output.slice(0, -prev.value.length);
          if (opts.literalBrackets === true) {
            state.output += escaped;
            prev.value = escaped;
            continue;
          }
          prev.value = `(${capture}${escaped}|${prev.value})`;
          state.output += prev.value;
          continue;
        }
        if (value === "{" && opts.nobrace !== true) {
          increment("braces");
          const open = {
            type: "brace",
            value,
            output: "(",
            outputIndex: state.output.length,
            tokensIndex: state.tokens.length
          };
          braces.push(open);
          push(open);
          continue;
        }
        if (value === "}") {
          const brace = braces[braces.length - 1];
          if (opts.nobrace === true || !brace) {
            push({ type: "text", value, output: value });
            continue;
          }
          let output = ")";
          if (brace.dots === true) {
            const arr = tokens.slice();
            const range = [];
            for (let i = arr.length - 1; i >= 0; i--) {
              tokens.pop();
              if (arr[i].type === "brace") {
                break;
              }
              if (arr[i].type !== "dots") {
                range.unshift(arr[i].value);
              }
            }
            output = expandRange(range, opts);
            state.backtrack = true;
          }
          if (brace.comma !== true && brace.dots !== true) {
            const out2 = state.output.slice(0, brace.outputIndex);
            const toks = state.tokens.slice(brace.tokensIndex);
            brace.value = brace.output = "\\{";
            value = output = "\\}";
            state.output = out2;
            for (const t of toks) {
              state.output += t.output || t.value;
            }
          }
          push({ type: "brace", value, output });
          decrement("braces");
          braces.pop();
          continue;
        }
        if (value === "|") {
          if (extglobs.length > 0) {
            extglobs[extglobs.length - 1].conditions++;
          }
          push({ type: "text", value });
          continue;
        }
        if (value === ",") {
          let output = value;
          const brace = braces[braces.length - 1];
          if (brace && stack[stack.length - 1] === "braces") {
            brace.comma = true;
            output = "|";
          }
          push({ type: "comma", value, output });
          continue;
        }
        if (value === "/") {
          if (prev.type === "dot" && state.index === state.start + 1) {
            state.start = state.index + 1;
            state.consumed = "";
            state.output = "";
            tokens.pop();
            prev = bos;
            continue;
          }
          push({ type: "slash", value, output: SLASH_LITERAL });
          continue;
        }
        if (value === ".") {
          if (state.braces > 0 && prev.type === "dot") {
            if (prev.value === ".") prev.output = DOT_LITERAL;
            const brace = braces[braces.length - 1];
            prev.type = "dots";
            prev.output += value;
            prev.value += value;
            brace.dots = true;
            continue;
          }
          if (state.braces + state.parens === 0 && prev.type !== "bos" && prev.type !== "slash") {
            push({ type: "text", value, output: DOT_LITERAL });
            continue;
          }
          push({ type: "dot", value, output: DOT_LITERAL });
          continue;
        }
        if (value === "?") {
          const isGroup = prev && prev.value === "(";
          if (!isGroup && opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            extglobOpen("qmark", value);
            continue;
          }
          if (prev && prev.type === "paren") {
            const next2 = peek();
            let output = value;
            if (prev.value === "(" && !/[!=<:]/.test(next2) || next2 === "<" && !/<([!=]|\w+>)/.test(remaining())) {
              output = `\\${value}`;
            }
            push({ type: "text", value, output });
            continue;
          }
          if (opts.dot !== true && (prev.type === "slash" || prev.type === "bos")) {
            push({ type: "qmark", value, output: QMARK_NO_DOT });
            continue;
          }
          push({ type: "qmark", value, output: QMARK });
          continue;
        }
        if (value === "!") {
          if (opts.noextglob !== true && peek() === "(") {
            if (peek(2) !== "?" || !/[!=<:]/.test(peek(3))) {
              extglobOpen("negate", value);
              continue;
            }
          }
          if (opts.nonegate !== true && state.index === 0) {
            negate();
            continue;
          }
        }
        if (value === "+") {
          if (opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            extglobOpen("plus", value);
            continue;
          }
          if (prev && prev.value === "(" || opts.regex === false) {
            push({ type: "plus", value, output: PLUS_LITERAL });
            continue;
          }
          if (prev && (prev.type === "bracket" || prev.type === "paren" || prev.type === "brace") || state.parens > 0) {
            push({ type: "plus", value });
            continue;
          }
          push({ type: "plus", value: PLUS_LITERAL });
          continue;
        }
        if (value === "@") {
          if (opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            push({ type: "at", extglob: true, value, output: "" });
            continue;
          }
          push({ type: "text", value });
          continue;
        }
        if (value !== "*") {
          if (value === "$" || value === "^") {
            value = `\\${value}`;
          }
          const match = REGEX_NON_SPECIAL_CHARS.exec(remaining());
          if (match) {
            value += match[0];
            state.index += match[0].length;
          }
          push({ type: "text", value });
          continue;
        }
        if (prev && (prev.type === "globstar" || prev.star === true)) {
          prev.type = "star";
          prev.star = true;
          prev.value += value;
          prev.output = star;
          state.backtrack = true;
          state.globstar = true;
          consume(value);
          continue;
        }
        let rest = remaining();
        if (opts.noextglob !== true && /^\([^?]/.test(rest)) {
          extglobOpen("star", value);
          continue;
        }
        if (prev.type === "star") {
          if (opts.noglobstar === true) {
            consume(value);
            continue;
          }
          const prior = prev.prev;
          const before = prior.prev;
          const isStart = prior.type === "slash" || prior.type === "bos";
          const afterStar = before && (before.type === "star" || before.type === "globstar");
          if (opts.bash === true && (!isStart || rest[0] && rest[0] !== "/")) {
            push({ type: "star", value, output: "" });
            continue;
          }
          const isBrace = state.braces > 0 && (prior.type === "comma" || prior.type === "brace");
          const isExtglob = extglobs.length && (prior.type === "pipe" || prior.type === "paren");
          if (!isStart && prior.type !== "paren" && !isBrace && !isExtglob) {
            push({ type: "star", value, output: "" });
            continue;
          }
          while (rest.slice(0, 3) === "/**") {
            const after = input[state.index + 4];
            if (after && after !== "/") {
              break;
            }
            rest = rest.slice(3);
            consume("/**", 3);
          }
          const isEnd = eos() || state.parens > 0 && rest === ")".repeat(state.parens) && !extglobs.some((extglob) => extglob.type === "negate");
          if (prior.type === "bos" && eos()) {
            prev.type = "globstar";
            prev.value += value;
            prev.output = globstar(opts);
            state.output = prev.output;
            state.globstar = true;
            consume(value);
            continue;
          }
          if (prior.type === "slash" && prior.prev.type !== "bos" && !afterStar && isEnd) {
            state.output = state.output.slice(0, -(prior.output + prev.output).length);
            prior.output = `(?:${prior.output}`;
            prev.type = "globstar";
            prev.output = globstar(opts) + (opts.strictSlashes ? ")" : "|$)");
            prev.value += value;
            state.globstar = true;
            state.output += prior.output + prev.output;
            consume(value);
            continue;
          }
          if (prior.type === "slash" && prior.prev.type !== "bos" && rest[0] === "/") {
            const end = rest[1] !== void 0 ? "|$" : "";
            state.output = state.output.slice(0, -(prior.output + prev.output).length);
            prior.output = `(?:${prior.output}`;
            prev.type = "globstar";
            prev.output = `${globstar(opts)}${SLASH_LITERAL}|${SLASH_LITERAL}${end})`;
            prev.value += value;
            state.output += prior.output + prev.output;
            state.globstar = true;
            consume(value + advance());
            push({ type: "slash", value: "/", output: "" });
            continue;
          }
          if (prior.type === "bos" && rest[0] === "/") {
            prev.type = "globstar";
            prev.value += value;
            prev.output = `(?:^|${SLASH_LITERAL}|${globstar(opts)}${SLASH_LITERAL})`;
            state.output = prev.output;
            state.globstar = true;
            consume(value + advance());
            push({ type: "slash", value: "/", output: "" });
            continue;
          }
          state.output = state.output.slice(0, -prev.output.length);
          prev.type = "globstar";
          prev.output = globstar(opts);
          prev.value += value;
          state.output += prev.output;
          state.globstar = true;
          consume(value);
          continue;
        }
        const token = { type: "star", value, output: star };
        if (opts.bash === true) {
          token.output = ".*?";
          if (prev.type === "bos" || prev.type === "slash") {
            token.output = nodot + token.output;
          }
          push(token);
          continue;
        }
        if (prev && (prev.type === "bracket" || prev.type === "paren") && opts.regex === true) {
          token.output = value;
          push(token);
          continue;
        }
        if (state.index === state.start || prev.type === "slash" || prev.type === "dot") {
          if (prev.type === "dot") {
            state.output += NO_DOT_SLASH;
            prev.output += NO_DOT_SLASH;
          } else if (opts.dot === true) {
            state.output += NO_DOTS_SLASH;
            prev.output += NO_DOTS_SLASH;
          } else {
            state.output += nodot;
            prev.output += nodot;
          }
          if (peek() !== "*") {
            state.output += ONE_CHAR;
            prev.output += ONE_CHAR;
          }
        }
        push(token);
      }
      while (state.brackets > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", "]"));
        state.output = utils.escapeLast(state.output, "[");
        decrement("brackets");
      }
      while (state.parens > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", ")"));
        state.output = utils.escapeLast(state.output, "(");
        decrement("parens");
      }
      while (state.braces > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", "}"));
        state.output = utils.escapeLast(state.output, "{");
        decrement("braces");
      }
      if (opts.strictSlashes !== true && (prev.type === "star" || prev.type === "bracket")) {
        push({ type: "maybe_slash", value: "", output: `${SLASH_LITERAL}?` });
      }
      if (state.backtrack === true) {
        state.output = "";
        for (const token of state.tokens) {
          state.output += token.output != null ? token.output : token.value;
          if (token.suffix) {
            state.output += token.suffix;
          }
        }
      }
      return state;
    };
    parse5.fastpaths = (input, options2) => {
      const opts = { ...options2 };
      const max = typeof opts.maxLength === "number" ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
      const len = input.length;
      if (len > max) {
        throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
      }
      input = REPLACEMENTS[input] || input;
      const {
        DOT_LITERAL,
        SLASH_LITERAL,
        ONE_CHAR,
        DOTS_SLASH,
        NO_DOT,
        NO_DOTS,
        NO_DOTS_SLASH,
        STAR,
        START_ANCHOR
      } = constants6.globChars(opts.windows);
      const nodot = opts.dot ? NO_DOTS : NO_DOT;
      const slashDot = opts.dot ? NO_DOTS_SLASH : NO_DOT;
      const capture = opts.capture ? "" : "?:";
      const state = { negated: false, prefix: "" };
      let star = opts.bash === true ? ".*?" : STAR;
      if (opts.capture) {
        star = `(${star})`;
      }
      const globstar = (opts2) => {
        if (opts2.noglobstar === true) return star;
        return `(${capture}(?:(?!${START_ANCHOR}${opts2.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
      };
      const create2 = (str4) => {
        switch (str4) {
          case "*":
            return `${nodot}${ONE_CHAR}${star}`;
          case ".*":
            return `${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "*.*":
            return `${nodot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "*/*":
            return `${nodot}${star}${SLASH_LITERAL}${ONE_CHAR}${slashDot}${star}`;
          case "**":
            return nodot + globstar(opts);
          case "**/*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${ONE_CHAR}${star}`;
          case "**/*.*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "**/.*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${DOT_LITERAL}${ONE_CHAR}${star}`;
          default: {
            const match = /^(.*?)\.(\w+)$/.exec(str4);
            if (!match) return;
            const source2 = create2(match[1]);
            if (!source2) return;
            return source2 + DOT_LITERAL + match[2];
          }
        }
      };
      const output = utils.removePrefix(input, state);
      let source = create2(output);
      if (source && opts.strictSlashes !== true) {
        source += `${SLASH_LITERAL}?`;
      }
      return source;
    };
    module2.exports = parse5;
  }
});

// node_modules/picomatch/lib/picomatch.js
var require_picomatch = __commonJS({
  "node_modules/picomatch/lib/picomatch.js"(exports2, module2) {
    "use strict";
    var scan = require_scan();
    var parse5 = require_parse2();
    var utils = require_utils2();
    var constants6 = require_constants();
    var isObject = (val) => val && typeof val === "object" && !Array.isArray(val);
    var picomatch2 = (glob, options2, returnState = false) => {
      if (Array.isArray(glob)) {
        const fns = glob.map((input) => picomatch2(input, options2, returnState));
        const arrayMatcher = (str4) => {
          for (const isMatch of fns) {
            const state2 = isMatch(str4);
            if (state2) return state2;
          }
          return false;
        };
        return arrayMatcher;
      }
      const isState = isObject(glob) && glob.tokens && glob.input;
      if (glob === "" || typeof glob !== "string" && !isState) {
        throw new TypeError("Expected pattern to be a non-empty string");
      }
      const opts = options2 || {};
      const posix = opts.windows;
      const regex = isState ? picomatch2.compileRe(glob, options2) : picomatch2.makeRe(glob, options2, false, true);
      const state = regex.state;
      delete regex.state;
      let isIgnored = () => false;
      if (opts.ignore) {
        const ignoreOpts = { ...options2, ignore: null, onMatch: null, onResult: null };
        isIgnored = picomatch2(opts.ignore, ignoreOpts, returnState);
      }
      const matcher = (input, returnObject = false) => {
        const { isMatch, match, output } = picomatch2.test(input, regex, options2, { glob, posix });
        const result = { glob, state, regex, posix, input, output, match, isMatch };
        if (typeof opts.onResult === "function") {
          opts.onResult(result);
        }
        if (isMatch === false) {
          result.isMatch = false;
          return returnObject ? result : false;
        }
        if (isIgnored(input)) {
          if (typeof opts.onIgnore === "function") {
            opts.onIgnore(result);
          }
          result.isMatch = false;
          return returnObject ? result : false;
        }
        if (typeof opts.onMatch === "function") {
          opts.onMatch(result);
        }
        return returnObject ? result : true;
      };
      if (returnState) {
        matcher.state = state;
      }
      return matcher;
    };
    picomatch2.test = (input, regex, options2, { glob, posix } = {}) => {
      if (typeof input !== "string") {
        throw new TypeError("Expected input to be a string");
      }
      if (input === "") {
        return { isMatch: false, output: "" };
      }
      const opts = options2 || {};
      const format = opts.format || (posix ? utils.toPosixSlashes : null);
      let match = input === glob;
      let output = match && format ? format(input) : input;
      if (match === false) {
        output = format ? format(input) : input;
        match = output === glob;
      }
      if (match === false || opts.capture === true) {
        if (opts.matchBase === true || opts.basename === true) {
          match = picomatch2.matchBase(input, regex, options2, posix);
        } else {
          match = regex.exec(output);
        }
      }
      return { isMatch: Boolean(match), match, output };
    };
    picomatch2.matchBase = (input, glob, options2, posix = options2 && options2.windows) => {
      const regex = glob instanceof RegExp ? glob : picomatch2.makeRe(glob, options2);
      return regex.test(utils.basename(input, { windows: posix }));
    };
    picomatch2.isMatch = (str4, patterns, options2) => picomatch2(patterns, options2)(str4);
    picomatch2.parse = (pattern, options2) => {
      if (Array.isArray(pattern)) return pattern.map((p) => picomatch2.parse(p, options2));
      return parse5(pattern, { ...options2, fastpaths: false });
    };
    picomatch2.scan = (input, options2) => scan(input, options2);
    picomatch2.compileRe = (state, options2, returnOutput = false, returnState = false) => {
      if (returnOutput === true) {
        return state.output;
      }
      const opts = options2 || {};
      const prepend = opts.contains ? "" : "^";
      const append = opts.contains ? "" : "$";
      let source = `${prepend}(?:${state.output})${append}`;
      if (state && state.negated === true) {
        source = `^(?!${source}).*$`;
      }
      const regex = picomatch2.toRegex(source, options2);
      if (returnState === true) {
        regex.state = state;
      }
      return regex;
    };
    picomatch2.makeRe = (input, options2 = {}, returnOutput = false, returnState = false) => {
      if (!input || typeof input !== "string") {
        throw new TypeError("Expected a non-empty string");
      }
      let parsed = { negated: false, fastpaths: true };
      if (options2.fastpaths !== false && (input[0] === "." || input[0] === "*")) {
        parsed.output = parse5.fastpaths(input, options2);
      }
      if (!parsed.output) {
        parsed = parse5(input, options2);
      }
      return picomatch2.compileRe(parsed, options2, returnOutput, returnState);
    };
    picomatch2.toRegex = (source, options2) => {
      try {
        const opts = options2 || {};
        return new RegExp(source, opts.flags || (opts.nocase ? "i" : ""));
      } catch (err) {
        if (options2 && options2.debug === true) throw err;
        return /$^/;
      }
    };
    picomatch2.constants = constants6;
    module2.exports = picomatch2;
  }
});

// node_modules/picomatch/index.js
var require_picomatch2 = __commonJS({
  "node_modules/picomatch/index.js"(exports2, module2) {
    "use strict";
    var pico = require_picomatch();
    var utils = require_utils2();
    function picomatch2(glob, options2, returnState = false) {
      if (options2 && (options2.windows === null || options2.windows === void 0)) {
        options2 = { ...options2, windows: utils.isWindows() };
      }
      return pico(glob, options2, returnState);
    }
    Object.assign(picomatch2, pico);
    module2.exports = picomatch2;
  }
});

// server/src/core/cairn.ts
import { existsSync as existsSync14 } from "node:fs";
import { join as join34, resolve as resolve6 } from "node:path";

// server/src/core/store/location.ts
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join as join2, resolve } from "node:path";

// server/src/core/config.ts
import { readFileSync } from "node:fs";
import { join } from "node:path";

// node_modules/smol-toml/dist/error.js
function getLineColFromPtr(string, ptr) {
  let lines = string.slice(0, ptr).split(/\r?\n/);
  return [lines.length, lines.pop().length + 1];
}
function makeCodeBlock(string, line, column) {
  let lines = string.split(/\r?\n/);
  let codeblock = "";
  let numberLen = (Math.log10(line + 1) | 0) + 1;
  for (let i = line - 1; i <= line + 1; i++) {
    let l = lines[i - 1];
    if (!l)
      continue;
    codeblock += i.toString().padEnd(numberLen, " ");
    codeblock += ":  ";
    codeblock += l;
    codeblock += "\n";
    if (i === line) {
      codeblock += " ".repeat(numberLen + column + 2);
      codeblock += "^\n";
    }
  }
  return codeblock;
}
var TomlError = class _TomlError extends Error {
  line;
  column;
  codeblock;
  constructor(message, options2) {
    const [line, column] = getLineColFromPtr(options2.toml, options2.ptr);
    const codeblock = makeCodeBlock(options2.toml, line, column);
    super(`Invalid TOML document: ${message}

${codeblock}`, options2);
    this.line = line;
    this.column = column;
    this.codeblock = codeblock;
  }
  /** @internal */
  static x(message, ctx, ptr) {
    throw new _TomlError(message, { toml: ctx.s, ptr: ptr ?? ctx.p });
  }
};

// node_modules/smol-toml/dist/primitive.js
function parseString(ctx) {
  let startPtr = ctx.p;
  let c = ctx.s.charCodeAt(ctx.p++);
  let first = c;
  let isLiteral = c === 39;
  let isMultiline = c === ctx.s.charCodeAt(ctx.p) && c === ctx.s.charCodeAt(ctx.p + 1);
  if (isMultiline) {
    if ((c = ctx.s.charCodeAt(ctx.p += 2)) === 10)
      ctx.p++;
    else if (c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10)
      ctx.p += 2;
  }
  let parsed = "";
  let sliceStart = ctx.p;
  let state = 0;
  for (; ctx.p < ctx.s.length; ctx.p++) {
    c = ctx.s.charCodeAt(ctx.p);
    if (isMultiline && (c === 10 || c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10)) {
      state = state && 3;
    } else if (c < 32 && c !== 9 || c === 127) {
      TomlError.x("control characters are not allowed in strings", ctx);
    } else if ((!state || state === 3) && c === first && (!isMultiline || ctx.s.charCodeAt(ctx.p + 1) === first && ctx.s.charCodeAt(ctx.p + 2) === first)) {
      if (isMultiline) {
        if (ctx.s.charCodeAt(ctx.p + 3) === first)
          ctx.p++;
        if (ctx.s.charCodeAt(ctx.p + 3) === first)
          ctx.p++;
      }
      if (!state) {
        let s2 = ctx.s.slice(sliceStart, ctx.p);
        parsed = parsed ? parsed + s2 : s2;
      }
      ctx.p += isMultiline ? 3 : 1;
      return parsed;
    } else if (!state) {
      if (!isLiteral && c === 92) {
        parsed += ctx.s.slice(sliceStart, sliceStart = ctx.p);
        state = 1;
      }
    } else if (state === 1) {
      if (c === 120 || c === 117 || c === 85) {
        let errPtr = ctx.p++ - 1;
        let value = 0;
        let len = c === 120 ? 2 : c === 117 ? 4 : 8;
        for (let j = 0; j < len; j++, ctx.p++) {
          let hex = ctx.s.charCodeAt(ctx.p);
          let digit = (
            /* 0-9 */
            hex >= 48 && hex <= 57 ? hex - 48 : (
              /* A-F */
              hex >= 65 && hex <= 70 ? hex - 65 + 10 : (
                /* a-f */
                hex >= 97 && hex <= 102 ? hex - 97 + 10 : -1
              )
            )
          );
          if (digit < 0)
            TomlError.x("invalid non-hex character in unicode escape", ctx);
          value = value << 4 | digit;
        }
        if (value < 0 || value > 1114111 || value >= 55296 && value <= 57343) {
          TomlError.x("invalid unicode escape", ctx, errPtr);
        }
        parsed += String.fromCodePoint(value);
        sliceStart = ctx.p--;
        state = 0;
      } else if (isMultiline && (c === 32 || c === 9)) {
        state = 2;
      } else {
        if (c === 98)
          parsed += "\b";
        else if (c === 116)
          parsed += "	";
        else if (c === 110)
          parsed += "\n";
        else if (c === 102)
          parsed += "\f";
        else if (c === 114)
          parsed += "\r";
        else if (c === 101)
          parsed += "\x1B";
        else if (c === 34)
          parsed += '"';
        else if (c === 92)
          parsed += "\\";
        else
          TomlError.x("unrecognised escape sequence", ctx);
        sliceStart = ctx.p + 1;
        state = 0;
      }
    } else if (c !== 32 && c !== 9) {
      if (state === 2)
        TomlError.x("invalid escape: only line-ending whitespace may be escaped", ctx, sliceStart);
      state = !isLiteral && c === 92 ? 1 : 0;
      sliceStart = ctx.p;
    }
  }
  TomlError.x("unfinished string", ctx, startPtr);
}

// node_modules/smol-toml/dist/date.js
var DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})?[Tt ]?(?:(\d{2}):\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|z|[-+]\d{2}:\d{2})?$/i;
var TomlDate = class _TomlDate extends Date {
  #hasDate = false;
  #hasTime = false;
  #offset = null;
  constructor(date, fasttype, unsafeDelim) {
    let hasDate = true;
    let hasTime = true;
    let offset = "Z";
    let c;
    if (typeof date === "string") {
      if (fasttype)
        prep: {
          if (fasttype < 3) {
            if (+date.slice(11, 13) > 23) {
              date = "";
              break prep;
            }
            if (fasttype === 2) {
              offset = null;
              date += "Z";
            } else if ((c = date.charCodeAt(date.length - 1)) !== 90 && c !== 122) {
              offset = date.slice(date.length - 6);
            }
            if (unsafeDelim)
              date = date.slice(0, 10) + "T" + date.slice(11);
          } else if (fasttype === 4) {
            date = +date.slice(0, 2) > 23 ? "" : `0000-01-01T${date}Z`;
          }
          hasDate = fasttype !== 4;
          hasTime = fasttype !== 3;
        }
      else {
        let match = date.match(DATE_TIME_RE);
        if (match) {
          if (!match[1]) {
            hasDate = false;
            date = `0000-01-01T${date}`;
          }
          hasTime = !!match[2];
          hasTime && date[10] === " " && (date = date.replace(" ", "T"));
          if (match[2] && +match[2] > 23) {
            date = "";
          } else {
            offset = match[3] || null;
            if (!offset && hasTime)
              date += "Z";
          }
        } else {
          date = "";
        }
      }
    }
    super(date);
    if (!isNaN(this.getTime())) {
      this.#hasDate = hasDate;
      this.#hasTime = hasTime;
      this.#offset = offset;
    }
  }
  isDateTime() {
    return this.#hasDate && this.#hasTime;
  }
  isLocal() {
    return !this.#hasDate || !this.#hasTime || !this.#offset;
  }
  isDate() {
    return this.#hasDate && !this.#hasTime;
  }
  isTime() {
    return this.#hasTime && !this.#hasDate;
  }
  isValid() {
    return this.#hasDate || this.#hasTime;
  }
  toISOString() {
    let iso = super.toISOString();
    if (this.isDate())
      return iso.slice(0, 10);
    if (this.isTime())
      return iso.slice(11, 23);
    if (this.#offset === null)
      return iso.slice(0, -1);
    if (this.#offset === "Z" || this.#offset === "z")
      return iso;
    let offset = +this.#offset.slice(1, 3) * 60 + +this.#offset.slice(4, 6);
    offset = this.#offset[0] === "-" ? offset : -offset;
    let offsetDate = new Date(this.getTime() - offset * 6e4);
    return offsetDate.toISOString().slice(0, -1) + this.#offset;
  }
  static wrapAsOffsetDateTime(jsDate, offset = "Z") {
    let date = new _TomlDate(jsDate);
    date.#offset = offset;
    return date;
  }
  static wrapAsLocalDateTime(jsDate) {
    let date = new _TomlDate(jsDate);
    date.#offset = null;
    return date;
  }
  static wrapAsLocalDate(jsDate) {
    let date = new _TomlDate(jsDate);
    date.#hasTime = false;
    date.#offset = null;
    return date;
  }
  static wrapAsLocalTime(jsDate) {
    let date = new _TomlDate(jsDate);
    date.#hasDate = false;
    date.#offset = null;
    return date;
  }
};

// node_modules/smol-toml/dist/extract.js
function isDigit(char, base = 10) {
  return base === 16 ? char > 47 && char < 58 || char > 64 && char < 71 || char > 96 && char < 103 : char > 47 && char < 48 + base;
}
function isEndOfValue(char, delim) {
  return char === 32 || char === 9 || char === 10 || char === 13 || // Structure end or next value delimiter
  delim && (char === delim || char === 44) || // Comment
  char === 35;
}
function extractValue(ctx, end) {
  let errPtr = ctx.p;
  let c = ctx.s.charCodeAt(ctx.p);
  if (c === 91 || c === 123) {
    ctx.d-- || TomlError.x("document contains excessively nested structures. aborting.", ctx);
    let value = c === 91 ? parseArray(ctx) : parseInlineTable(ctx);
    ctx.d++;
    return value;
  }
  if (c === 34 || c === 39) {
    return parseString(ctx);
  }
  if (c === 116) {
    if (ctx.s.charCodeAt(++ctx.p) !== 114 || ctx.s.charCodeAt(++ctx.p) !== 117 || ctx.s.charCodeAt(++ctx.p) !== 101)
      TomlError.x("invalid value", ctx, errPtr);
    return ctx.p++, true;
  }
  if (c === 102) {
    if (ctx.s.charCodeAt(++ctx.p) !== 97 || ctx.s.charCodeAt(++ctx.p) !== 108 || ctx.s.charCodeAt(++ctx.p) !== 115 || ctx.s.charCodeAt(++ctx.p) !== 101)
      TomlError.x("invalid value", ctx, errPtr);
    return ctx.p++, false;
  }
  if (c === 43 || c === 45) {
    return parseNumber(ctx, ctx.p, ctx.s.charCodeAt(++ctx.p), 44 - c, end);
  }
  if (ctx.s.charCodeAt(ctx.p + 4) === 45 && ctx.s.charCodeAt(ctx.p + 7) === 45) {
    return parseDate(ctx, c, end);
  }
  if (ctx.s.charCodeAt(ctx.p + 2) === 58) {
    return parseTime(ctx, c, end);
  }
  return parseNumber(ctx, ctx.p, c, 0, end);
}
function parseNumber(ctx, startPtr, startChr, sign, endChr) {
  let c = startChr;
  let state = 0;
  let hasUnderscores = false;
  if (c === 105) {
    if (ctx.s.charCodeAt(++ctx.p) !== 110 || ctx.s.charCodeAt(++ctx.p) !== 102)
      TomlError.x("invalid value", ctx, startPtr);
    return ctx.p++, (sign || 1) / 0;
  }
  if (c === 110) {
    if (ctx.s.charCodeAt(++ctx.p) !== 97 || ctx.s.charCodeAt(++ctx.p) !== 110)
      TomlError.x("invalid value", ctx, startPtr);
    return ctx.p++, NaN;
  }
  if (c === 48) {
    if (++ctx.p >= ctx.s.length || isEndOfValue(c = ctx.s.charCodeAt(ctx.p), endChr))
      return ctx.bi === true ? 0n : 0;
    if (!sign) {
      if (c === 120)
        return parseIntegerBaseN(ctx, startPtr, 16, endChr);
      else if (c === 98)
        return parseIntegerBaseN(ctx, startPtr, 2, endChr);
      else if (c === 111)
        return parseIntegerBaseN(ctx, startPtr, 8, endChr);
    }
    if (c === 46)
      state = 2;
    else if (c === 101 || c === 69)
      state = 4;
    else
      TomlError.x("illegal leading zero", ctx, startPtr);
  } else if (!isDigit(c))
    TomlError.x("invalid value", ctx, startPtr);
  while (++ctx.p < ctx.s.length && (c = ctx.s.charCodeAt(ctx.p), !isEndOfValue(c, endChr))) {
    if (!state)
      state = 1;
    if (c === 95) {
      if (!(state & 1))
        TomlError.x("illegal underscore", ctx);
      state += 11;
      hasUnderscores = true;
    } else if (state === 1 && c === 46)
      state = 2;
    else if ((state === 1 || state === 3) && (c === 101 || c === 69))
      state = 4;
    else if (state === 4 && (c === 43 || c === 45)) {
      state = 6;
    } else if (!isDigit(c))
      TomlError.x(`illegal character in numeric literal`, ctx);
    else if (state > 9)
      state -= 11;
    else if (!(state & 1))
      state++;
  }
  if (!state) {
    let val = (startChr - 48) * (sign || 1);
    return ctx.bi === true ? BigInt(val) : val;
  }
  if (!(state & 1))
    TomlError.x("unfinished numeric value", ctx, startPtr);
  let str4 = ctx.s.slice(startPtr, ctx.p);
  if (hasUnderscores)
    str4 = str4.replaceAll("_", "");
  return state > 1 ? parseFloat(str4) : parseInteger(ctx, str4, 10, startPtr);
}
function parseIntegerBaseN(ctx, startPtr, base, endChr) {
  let c, underscore = 1;
  while (++ctx.p < ctx.s.length && (c = ctx.s.charCodeAt(ctx.p), !isEndOfValue(c, endChr))) {
    if (c === 95) {
      if (underscore & 1)
        TomlError.x("illegal underscore", ctx);
      underscore = 3;
    } else if (!isDigit(c, base))
      TomlError.x(`illegal character in numeric literal`, ctx);
    else if (underscore & 1)
      underscore--;
  }
  if (underscore & 1)
    TomlError.x("unfinished numeric value", ctx);
  let str4 = ctx.s.slice(startPtr + 2, ctx.p);
  if (underscore)
    str4 = str4.replaceAll("_", "");
  return parseInteger(ctx, str4, base, startPtr);
}
function parseInteger(ctx, str4, base, startPtr) {
  if (ctx.bi !== true)
    int: {
      let val = parseInt(str4, base);
      if (!Number.isSafeInteger(val)) {
        if (ctx.bi)
          break int;
        TomlError.x("integer value cannot be represented losslessly", ctx, startPtr);
      }
      return val;
    }
  return base === 10 ? BigInt(str4) : BigInt((base === 2 ? "0b" : base === 8 ? "0o" : "0x") + str4);
}
function parseDate(ctx, c, endChr) {
  let startPtr = ctx.p++, unsafeSeparator;
  if (!isDigit(c) || !isDigit(ctx.s.charCodeAt(ctx.p++)) || !isDigit(ctx.s.charCodeAt(ctx.p++)) || !isDigit(ctx.s.charCodeAt(ctx.p++))) {
    return parseNumber(ctx, ctx.p = startPtr, c, 0, endChr);
  }
  ctx.p += 5;
  if (!isDigit(ctx.s.charCodeAt(ctx.p++)))
    TomlError.x("invalid date-time: date part is malformed", ctx, startPtr);
  if (ctx.p >= ctx.s.length || ((c = ctx.s.charCodeAt(ctx.p)) !== 32 || (unsafeSeparator = true, !isDigit(ctx.s.charCodeAt(ctx.p + 1)))) && c !== 84 && c !== 116) {
    let t2 = ctx.s.slice(startPtr, ctx.p);
    return readDate(ctx, t2, 3, false, startPtr);
  }
  if (ctx.s.charCodeAt(ctx.p += 3) !== 58)
    TomlError.x("invalid date-time: time part is malformed", ctx, startPtr);
  if (ctx.s.charCodeAt(ctx.p += 3) === 58)
    ctx.p += 3;
  if (ctx.s.charCodeAt(ctx.p) === 46)
    while (isDigit(ctx.s.charCodeAt(++ctx.p)))
      ;
  if (c = ctx.s.charCodeAt(ctx.p)) {
    if (c === 90 || c === 122) {
      let t2 = ctx.s.slice(startPtr, ++ctx.p);
      return readDate(ctx, t2, 1, unsafeSeparator, startPtr, "[+00:00]");
    }
    if (c === 43 || c === 45) {
      let t2 = ctx.s.slice(startPtr, ctx.p += 6);
      return readDate(ctx, t2, 1, unsafeSeparator, startPtr, !ctx.ld && "[" + ctx.s.slice(ctx.p - 6, ctx.p) + "]");
    }
  }
  let t = ctx.s.slice(startPtr, ctx.p);
  return readDate(ctx, t, 2, unsafeSeparator, startPtr);
}
function parseTime(ctx, c, endChr) {
  let start = ctx.p;
  if (!isDigit(c) || !isDigit(ctx.s.charCodeAt(++ctx.p))) {
    return parseNumber(ctx, --ctx.p, c, 0, endChr);
  }
  if (ctx.s.charCodeAt(ctx.p += 4) === 58)
    ctx.p += 3;
  if (ctx.s.charCodeAt(ctx.p) === 46)
    while (isDigit(ctx.s.charCodeAt(++ctx.p)))
      ;
  let t = ctx.s.slice(start, ctx.p);
  return readDate(ctx, t, 4, false, start);
}
function readDate(ctx, str4, type, unsafeDelim, errPtr, temporalSuffix) {
  if (ctx.ld) {
    let date = new TomlDate(str4, type, unsafeDelim);
    if (!date.isValid())
      TomlError.x("invalid date", ctx, errPtr);
    return date;
  }
  try {
    if (temporalSuffix)
      str4 += temporalSuffix;
    switch (type) {
      case 1:
        return Temporal.ZonedDateTime.from(str4);
      case 2:
        return Temporal.PlainDateTime.from(str4);
      case 3:
        return Temporal.PlainDate.from(str4);
      case 4:
        return Temporal.PlainTime.from(str4);
    }
  } catch (e) {
    TomlError.x(e instanceof Error ? e.message : "" + e, ctx, errPtr);
  }
}

// node_modules/smol-toml/dist/util.js
function skipComment(ctx) {
  for (; ctx.p < ctx.s.length; ctx.p++) {
    let c = ctx.s.charCodeAt(ctx.p);
    if (c === 10)
      break;
    if (c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10) {
      ctx.p++;
      break;
    }
    if (c < 32 && c !== 9 || c === 127) {
      TomlError.x("control characters are not allowed in comments", ctx);
    }
  }
}
function skipVoid(ctx, banNewLines, banComments) {
  let c;
  while (ctx.p < ctx.s.length) {
    while (ctx.p < ctx.s.length && ((c = ctx.s.charCodeAt(ctx.p)) === 32 || c === 9 || !banNewLines && (c === 10 || c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10)))
      ctx.p++;
    if (banComments || c !== 35)
      break;
    skipComment(ctx);
  }
}

// node_modules/smol-toml/dist/struct.js
function parseKey(ctx, end = 61) {
  let startPtr;
  let state = 0;
  let parsed = [];
  let sliceStart;
  let c = ctx.s.charCodeAt(startPtr = ctx.p);
  do {
    if (c === end) {
      if (!state)
        TomlError.x("unexpected end of key", ctx);
      if (state === 1)
        parsed.push(ctx.s.slice(sliceStart, ctx.p));
      return ctx.p++, parsed;
    } else if (c === 46) {
      if (!state)
        TomlError.x("illegal empty bare key", ctx);
      if (state === 1)
        parsed.push(ctx.s.slice(sliceStart, ctx.p));
      state = 0;
    } else if (!state && (c === 34 || c === 39)) {
      if (c === ctx.s.charCodeAt(ctx.p + 1) && c === ctx.s.charCodeAt(ctx.p + 2))
        TomlError.x("illegal quoted key: multiline strings are not allowed", ctx);
      parsed.push(parseString(ctx));
      state = 2;
      ctx.p--;
    } else if (c === 32 || c === 9) {
      if (state === 1) {
        parsed.push(ctx.s.slice(sliceStart, ctx.p));
        state = 2;
      }
    } else if (state === 2 || c < 48 && c !== 45 || c > 57 && c < 65 || c > 90 && c < 97 && c !== 95 || c > 122) {
      TomlError.x("illegal character in key", ctx);
    } else if (!state) {
      state = 1;
      sliceStart = ctx.p;
    }
  } while (c = ctx.s.charCodeAt(++ctx.p));
  TomlError.x("incomplete key-value: cannot find end of key", ctx, startPtr);
}
function parseInlineTable(ctx) {
  let startPtr = ctx.p++;
  let res = /* @__PURE__ */ Object.create(null);
  let seen = /* @__PURE__ */ new Set();
  let c;
  while (ctx.p < ctx.s.length) {
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p)) === 125) {
      ctx.p++;
      return res;
    }
    let k;
    let t = res;
    let hasOwn = false;
    let errPtr = ctx.p;
    let key = parseKey(ctx);
    for (let i = 0; i < key.length; i++) {
      if (i)
        t = hasOwn ? t[k] : t[k] = /* @__PURE__ */ Object.create(null);
      k = key[i];
      if ((hasOwn = Object.hasOwn(t, k)) && (typeof t[k] !== "object" || seen.has(t[k]))) {
        TomlError.x("trying to redefine an already defined value", ctx, errPtr);
      }
      let unsafe = k === "__proto__";
      if (ctx.uk && (unsafe || k === "constructor")) {
        t = ctx.uk !== 1 && TomlError.x("document contains an unsafe property", ctx, errPtr);
        break;
      }
      if (!hasOwn && unsafe) {
        Object.defineProperty(t, k, { enumerable: true, configurable: true, writable: true });
      }
    }
    if (hasOwn) {
      TomlError.x("trying to redefine an already defined value", ctx, errPtr);
    }
    skipVoid(ctx, true, true);
    let value = extractValue(
      ctx,
      125
      /* } */
    );
    if (t && typeof (t[k] = value) === "object")
      seen.add(value);
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p++)) === 125) {
      return res;
    }
    if (c !== 44)
      TomlError.x("expected comma or end of structure", ctx, ctx.p - 1);
  }
  TomlError.x("unfinished table", ctx, startPtr);
}
function parseArray(ctx) {
  let startPtr = ctx.p++;
  let res = [];
  let c;
  while (ctx.p < ctx.s.length) {
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p)) === 93) {
      ctx.p++;
      return res;
    }
    res.push(extractValue(
      ctx,
      93
      /* ] */
    ));
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p++)) === 93) {
      return res;
    }
    if (c !== 44)
      TomlError.x("expected comma or end of structure", ctx, ctx.p - 1);
  }
  TomlError.x("unfinished array", ctx, startPtr);
}

// node_modules/smol-toml/dist/parse.js
function peekTable(ctx, key, table, meta, type) {
  let t = table;
  let m = meta;
  let k;
  let hasOwn = false;
  let state;
  for (let i = 0; i < key.length; i++) {
    if (i) {
      t = hasOwn ? t[k] : t[k] = /* @__PURE__ */ Object.create(null);
      m = (state = m[k]).c;
      if (type === 0 && (state.t === 1 || state.t === 2)) {
        return null;
      }
      if (state.t === 2) {
        let l = t.length - 1;
        t = t[l];
        m = m[l].c;
      }
    }
    k = key[i];
    if ((hasOwn = Object.hasOwn(t, k)) && m[k]?.t === 0 && m[k]?.d) {
      return null;
    }
    if (!hasOwn) {
      let unsafe = k === "__proto__";
      if (ctx.uk && (unsafe || k === "constructor"))
        return false;
      if (unsafe) {
        Object.defineProperty(t, k, { enumerable: true, configurable: true, writable: true });
        Object.defineProperty(m, k, { enumerable: true, configurable: true, writable: true });
      }
      m[k] = {
        t: i < key.length - 1 && type === 2 ? 3 : type,
        d: false,
        i: 0,
        c: /* @__PURE__ */ Object.create(null)
      };
    }
  }
  state = m[k];
  if (state.t !== type && !(type === 1 && state.t === 3)) {
    return null;
  }
  if (type === 2) {
    if (!state.d) {
      state.d = true;
      t[k] = [];
    }
    t[k].push(t = /* @__PURE__ */ Object.create(null));
    state.c[state.i++] = state = { t: 1, d: false, i: 0, c: /* @__PURE__ */ Object.create(null) };
  }
  if (state.d) {
    return null;
  }
  state.d = true;
  if (type === 1) {
    t = hasOwn ? t[k] : t[k] = /* @__PURE__ */ Object.create(null);
  } else if (type === 0 && hasOwn) {
    return null;
  }
  return [k, t, state.c];
}
function validateTablePeek(ctx, peek, ptr) {
  if (peek === null || ctx.uk === 2)
    TomlError.x(peek === null ? "trying to redefine an already defined table or value" : "document contains an unsafe property", ctx, ptr);
}
function parse2(toml, options2 = {}) {
  let ctx = {
    s: toml,
    p: 0,
    d: options2.maxDepth ?? 1e3,
    bi: options2.integersAsBigInt ?? false,
    ld: options2.useLegacyDate ?? true,
    uk: options2.unsafeKeyBehaviour === "throw" ? 2 : options2.unsafeKeyBehaviour === "drop" ? 1 : 0
  };
  let res = /* @__PURE__ */ Object.create(null);
  let meta = /* @__PURE__ */ Object.create(null);
  let tmp;
  let skipping = false;
  let tbl = res;
  let m = meta;
  if (toml.charCodeAt(0) === 65279)
    ctx.p++;
  skipVoid(ctx);
  while (ctx.p < toml.length) {
    if (toml.charCodeAt(ctx.p) === 91) {
      let isTableArray = toml.charCodeAt(++ctx.p) === 91;
      tmp = ctx.p += +isTableArray;
      skipping = false;
      let k = parseKey(
        ctx,
        93
        /* ] */
      );
      if (isTableArray) {
        if (toml.charCodeAt(ctx.p) !== 93) {
          TomlError.x("expected end of table array declaration", ctx);
        }
        ctx.p++;
      }
      let p = peekTable(
        ctx,
        k,
        res,
        meta,
        isTableArray ? 2 : 1
        /* Type.EXPLICIT */
      );
      if (!p) {
        validateTablePeek(ctx, p, tmp);
        skipping = true;
      } else {
        m = p[2];
        tbl = p[1];
      }
    } else {
      tmp = ctx.p;
      let k = parseKey(ctx);
      let p = peekTable(
        ctx,
        k,
        tbl,
        m,
        0
        /* Type.DOTTED */
      );
      if (!p && !skipping)
        validateTablePeek(ctx, p, tmp);
      skipVoid(ctx, true, true);
      let v = extractValue(ctx, void 0);
      if (p && !skipping)
        p[1][p[0]] = v;
    }
    skipVoid(ctx, true);
    if (ctx.p < toml.length && (tmp = toml.charCodeAt(ctx.p)) !== 10 && (tmp !== 13 || toml.charCodeAt(ctx.p + 1) !== 10)) {
      TomlError.x("each key-value declaration must be followed by an end-of-line", ctx);
    }
    skipVoid(ctx);
  }
  return res;
}

// node_modules/smol-toml/dist/stringify.js
var HAS_WELLFORMED = !!"".isWellFormed;

// server/src/core/errors.ts
var CairnError = class extends Error {
  name = "CairnError";
};
var ValidationError = class extends CairnError {
  name = "ValidationError";
};
var NotFoundError = class extends CairnError {
  name = "NotFoundError";
};
var TombstonedError = class extends CairnError {
  name = "TombstonedError";
};
var MalformedIdError = class extends CairnError {
  name = "MalformedIdError";
};
var PendingExpiredError = class extends CairnError {
  name = "PendingExpiredError";
};
var ConfigError = class extends CairnError {
  name = "ConfigError";
};
var LockTimeoutError = class extends CairnError {
  name = "LockTimeoutError";
};
var ConflictError = class extends CairnError {
  name = "ConflictError";
};
function errorMessage(err) {
  return err instanceof Error ? err.message : String(err);
}

// server/src/core/config.ts
var EMBED_PROVIDERS = ["builtin", "ollama", "openai"];
function defaultEmbedConfig() {
  return { enabled: true, provider: "builtin", url: null, model: null, api_key_env: null, timeout_ms: 1e4 };
}
function checkEmbedSection(c, given) {
  if (c.provider === "builtin") {
    for (const k of ["url", "model", "api_key_env", "timeout_ms"]) {
      if (given.has(k)) throw new ConfigError(`config key embed.${k} is only used with embed.provider = "ollama" or "openai" (provider is "builtin")`);
    }
    return;
  }
  if (c.model === null) throw new ConfigError(`config key embed.model is required when embed.provider = "${c.provider}"`);
  if (c.provider === "ollama" && c.api_key_env !== null) {
    throw new ConfigError('config key embed.api_key_env is only used with embed.provider = "openai"');
  }
  if (c.api_key_env !== null && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.api_key_env)) {
    throw new ConfigError(`config key embed.api_key_env must name an environment variable (letters, digits, _), got ${JSON.stringify(c.api_key_env)}`);
  }
}
var DEFAULT_GLOBAL_SCOPES = ["preferences", "tools", "user", "me", "global"];
function defaultConfig() {
  return {
    storage: { directory: null },
    behavior: {
      require_write_confirmation: false,
      default_max_results: 5,
      recency_half_life_days: 30,
      verification_stale_days: 30,
      pending_ttl_minutes: 60,
      max_body_chars: 2e4
    },
    scopes: { allowed: [], global: [...DEFAULT_GLOBAL_SCOPES] },
    telemetry: { enabled: true, max_bytes: 1e7 },
    hooks: { session_start: true },
    memory_tool: { enabled: true },
    search: { synonyms: {} },
    curation: { dead_weight_min_age_days: 14, dead_weight_min_retrievals: 3 },
    ranking: { feedback: true, feedback_half_life_days: 60, feedback_max_percent: 5 },
    embed: defaultEmbedConfig(),
    sync: { auto: false, interval_minutes: 15, debounce_seconds: 30 },
    team: { enabled: true }
  };
}
var SPEC = {
  storage: { directory: { kind: "string" } },
  behavior: {
    require_write_confirmation: { kind: "bool" },
    default_max_results: { kind: "int", min: 1, max: 50 },
    recency_half_life_days: { kind: "int", min: 1, max: 36500 },
    verification_stale_days: { kind: "int", min: 1, max: 36500 },
    pending_ttl_minutes: { kind: "int", min: 1, max: 525600 },
    max_body_chars: { kind: "int", min: 100, max: 1e6 }
  },
  scopes: { allowed: { kind: "string[]" }, global: { kind: "string[]" } },
  telemetry: { enabled: { kind: "bool" }, max_bytes: { kind: "int", min: 1e4, max: 1e10 } },
  hooks: { session_start: { kind: "bool" } },
  memory_tool: { enabled: { kind: "bool" } },
  search: { synonyms: { kind: "synonyms" } },
  curation: {
    dead_weight_min_age_days: { kind: "int", min: 0, max: 36500 },
    dead_weight_min_retrievals: { kind: "int", min: 1, max: 1e6 }
  },
  ranking: {
    feedback: { kind: "bool" },
    feedback_half_life_days: { kind: "int", min: 1, max: 36500 },
    feedback_max_percent: { kind: "int", min: 0, max: 15 }
  },
  embed: {
    enabled: { kind: "bool" },
    provider: { kind: "enum", values: EMBED_PROVIDERS },
    url: { kind: "url" },
    model: { kind: "string" },
    api_key_env: { kind: "string" },
    timeout_ms: { kind: "int", min: 100, max: 6e5 }
  },
  sync: {
    auto: { kind: "bool" },
    interval_minutes: { kind: "int", min: 1, max: 10080 },
    debounce_seconds: { kind: "int", min: 1, max: 3600 }
  },
  team: { enabled: { kind: "bool" } }
};
function describe(v) {
  return typeof v === "string" ? JSON.stringify(v) : Array.isArray(v) ? "an array" : String(v);
}
function checkValue(key, spec, v) {
  switch (spec.kind) {
    case "bool":
      if (typeof v !== "boolean") throw new ConfigError(`config key ${key} must be true or false, got ${describe(v)}`);
      return v;
    case "int": {
      const n = typeof v === "bigint" ? Number(v) : v;
      if (typeof n !== "number" || !Number.isInteger(n)) {
        throw new ConfigError(`config key ${key} must be a whole number, got ${describe(v)}`);
      }
      if (spec.min !== void 0 && n < spec.min || spec.max !== void 0 && n > spec.max) {
        throw new ConfigError(`config key ${key} must be between ${spec.min} and ${spec.max}, got ${n}`);
      }
      return n;
    }
    case "string":
      if (typeof v !== "string" || v.trim() === "") {
        throw new ConfigError(`config key ${key} must be a non-empty string, got ${describe(v)}`);
      }
      return v;
    case "string[]":
      if (!Array.isArray(v) || v.some((s2) => typeof s2 !== "string" || s2 === "")) {
        throw new ConfigError(`config key ${key} must be an array of non-empty strings`);
      }
      return v;
    case "synonyms": {
      if (typeof v !== "object" || v === null || Array.isArray(v)) {
        throw new ConfigError(`config key ${key} must be a table of term = ["synonym", ...]`);
      }
      const out2 = {};
      for (const [term, list2] of Object.entries(v)) {
        if (!Array.isArray(list2) || list2.some((s2) => typeof s2 !== "string" || s2.trim() === "")) {
          throw new ConfigError(`config key ${key}.${term} must be an array of non-empty strings`);
        }
        out2[term.toLowerCase()] = list2.map((s2) => s2.toLowerCase());
      }
      return out2;
    }
    case "enum":
      if (typeof v !== "string" || !spec.values?.includes(v)) {
        throw new ConfigError(`config key ${key} must be one of ${(spec.values ?? []).map((x) => JSON.stringify(x)).join(", ")}, got ${describe(v)}`);
      }
      return v;
    case "url": {
      let u2 = null;
      try {
        u2 = typeof v === "string" ? new URL(v) : null;
      } catch {
        u2 = null;
      }
      if (!u2 || u2.protocol !== "http:" && u2.protocol !== "https:") {
        throw new ConfigError(`config key ${key} must be an http:// or https:// URL, got ${describe(v)}`);
      }
      return v;
    }
    default:
      spec.kind;
      throw new ConfigError(`config key ${key}: unknown kind`);
  }
}
function configFromObject(doc) {
  const cfg = defaultConfig();
  for (const [section3, body] of Object.entries(doc)) {
    const spec = SPEC[section3];
    if (!spec) {
      throw new ConfigError(`config section [${section3}] is not known: use one of ${Object.keys(SPEC).map((s2) => `[${s2}]`).join(", ")}`);
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new ConfigError(`config key ${section3} must be a table ([${section3}])`);
    }
    for (const [key, value] of Object.entries(body)) {
      const ks = spec[key];
      if (!ks) {
        throw new ConfigError(`config key ${section3}.${key} is not known: use one of ${Object.keys(spec).map((k) => `${section3}.${k}`).join(", ")}`);
      }
      cfg[section3][key] = checkValue(`${section3}.${key}`, ks, value);
    }
  }
  const out2 = cfg;
  const embedDoc = doc.embed;
  checkEmbedSection(out2.embed, new Set(typeof embedDoc === "object" && embedDoc !== null ? Object.keys(embedDoc) : []));
  return out2;
}
function parseConfigText(text2, file = "config.toml") {
  let doc;
  try {
    doc = parse2(text2);
  } catch (err) {
    throw new ConfigError(`${file} is not valid TOML: ${errorMessage(err).split("\n")[0]}`);
  }
  return configFromObject(doc);
}
function loadConfigFile(file) {
  let text2;
  try {
    text2 = readFileSync(file, "utf8");
  } catch (err) {
    if (err.code === "ENOENT") return defaultConfig();
    throw new ConfigError(`cannot read ${file}: ${errorMessage(err)}`);
  }
  return parseConfigText(text2, file);
}
function configPath(storeDir) {
  return join(storeDir, "config.toml");
}

// server/src/core/store/location.ts
var isDir = (p) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};
function findProjectStore(cwd) {
  const chain = [];
  let root = null;
  for (let d = resolve(cwd); ; d = dirname(d)) {
    chain.push(d);
    if (existsSync(join2(d, ".git"))) {
      root = d;
      break;
    }
    if (dirname(d) === d) break;
  }
  const searched = root === null ? [resolve(cwd)] : chain;
  for (const d of searched) if (isDir(join2(d, ".cairn")) && !isTeamStore(join2(d, ".cairn"))) return { dir: join2(d, ".cairn"), searched, root };
  return { dir: null, searched, root };
}
var TEAM_MARKER = "team.toml";
function isTeamStore(dir) {
  return existsSync(join2(dir, TEAM_MARKER));
}
function findTeamStore(repoRoot) {
  if (repoRoot === null) return null;
  const dir = join2(repoRoot, ".cairn");
  return isTeamStore(dir) ? dir : null;
}
function expandHome(p, home = homedir()) {
  if (p === "~") return home;
  if (p.startsWith("~/")) return join2(home, p.slice(2));
  return p;
}
function resolveStore(opts = {}) {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const home = opts.home ?? env.HOME ?? homedir();
  const fromEnv = env.CAIRN_DIR;
  if (fromEnv && fromEnv.trim() !== "") {
    const dir = resolve(cwd, expandHome(fromEnv, home));
    return { dir, via: "env", config: loadConfigFile(configPath(dir)), configFile: configPath(dir), why: `$CAIRN_DIR is set to ${fromEnv}` };
  }
  const found = findProjectStore(cwd);
  const projectExists = found.dir !== null;
  const fallback = found.dir ?? join2(home, ".cairn");
  const range = found.root === null ? `in ${found.searched[0]} (not in a git repo, so no parent is searched)` : `from ${found.searched[0]} up to the repo root ${found.root}`;
  const projectWhy = projectExists ? `project store: .cairn/ found at ${dirname(found.dir)}, searching ${range}` : `home default: no .cairn/ ${range}`;
  const baseConfigFile = configPath(fallback);
  const base = loadConfigFile(baseConfigFile);
  const configured = base.storage.directory;
  if (configured) {
    const expanded = expandHome(configured, home);
    const dir = isAbsolute(expanded) ? expanded : resolve(fallback, expanded);
    if (dir !== fallback) {
      const ownFile = configPath(dir);
      const own2 = existsSync(ownFile) ? loadConfigFile(ownFile) : base;
      return { dir, via: "config", config: own2, configFile: existsSync(ownFile) ? ownFile : baseConfigFile, why: `storage.directory = ${JSON.stringify(configured)} in ${baseConfigFile} (${projectWhy})` };
    }
  }
  return { dir: fallback, via: projectExists ? "project" : "home", config: base, configFile: baseConfigFile, why: projectWhy };
}

// server/src/core/store/pending.ts
import { promises as fsp2, statSync as statSync2 } from "node:fs";
import { dirname as dirname3, join as join4 } from "node:path";
import { randomBytes as randomBytes2 } from "node:crypto";

// server/src/core/store/fsatomic.ts
import { promises as fsp, closeSync, constants, fchmodSync, fsync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname as dirname2, join as join3 } from "node:path";
import { randomBytes } from "node:crypto";
var DIR_MODE = 448;
var FILE_MODE = 384;
function tempPathFor(target) {
  return join3(dirname2(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}
function isTempName(name) {
  return name.startsWith(".") && name.endsWith(".tmp");
}
function fsyncFd(fd) {
  return new Promise((resolve7, reject) => fsync(fd, (err) => err ? reject(err) : resolve7()));
}
async function fsyncDir(dir) {
  let fd;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    await fsyncFd(fd);
  } catch (err) {
    const code = err.code;
    if (code !== "EINVAL" && code !== "EISDIR" && code !== "EPERM") throw err;
  } finally {
    if (fd !== void 0) closeSync(fd);
  }
}
async function ensureDir(dir) {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
}
function ensureOwnDirSync(dir) {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  if (!lstatSync(dir).isDirectory()) {
    throw new Error(`${dir} is not a real directory (a symbolic link or a file); cairn does not follow links out of the store, so replace it with a directory`);
  }
}
function isOwnDirSync(dir) {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
}
async function writeFileAtomic(target, data, mode = FILE_MODE) {
  const tmp = tempPathFor(target);
  const fd = openSync(tmp, "wx", mode);
  try {
    const buf = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    for (let at2 = 0; at2 < buf.length; ) at2 += writeSync(fd, buf, at2, buf.length - at2);
    if (mode !== FILE_MODE) fchmodSync(fd, mode);
    await fsyncFd(fd);
  } catch (err) {
    try {
      closeSync(fd);
    } catch {
    }
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  await fsyncDir(dirname2(target));
}
async function moveFileDurable(from, to) {
  await fsp.rename(from, to);
  await fsyncDir(dirname2(to));
  if (dirname2(from) !== dirname2(to)) await fsyncDir(dirname2(from));
}

// server/src/core/ids.ts
import { randomFillSync } from "node:crypto";

// node_modules/ulid/dist/node/index.js
import crypto from "node:crypto";
var ENCODING = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
var ENCODING_LEN = 32;
var RANDOM_LEN = 16;
var TIME_LEN = 10;
var TIME_MAX = 281474976710655;
var ULIDErrorCode;
(function(ULIDErrorCode2) {
  ULIDErrorCode2["Base32IncorrectEncoding"] = "B32_ENC_INVALID";
  ULIDErrorCode2["DecodeTimeInvalidCharacter"] = "DEC_TIME_CHAR";
  ULIDErrorCode2["DecodeTimeValueMalformed"] = "DEC_TIME_MALFORMED";
  ULIDErrorCode2["EncodeTimeNegative"] = "ENC_TIME_NEG";
  ULIDErrorCode2["EncodeTimeSizeExceeded"] = "ENC_TIME_SIZE_EXCEED";
  ULIDErrorCode2["EncodeTimeValueMalformed"] = "ENC_TIME_MALFORMED";
  ULIDErrorCode2["PRNGDetectFailure"] = "PRNG_DETECT";
  ULIDErrorCode2["ULIDInvalid"] = "ULID_INVALID";
  ULIDErrorCode2["Unexpected"] = "UNEXPECTED";
  ULIDErrorCode2["UUIDInvalid"] = "UUID_INVALID";
})(ULIDErrorCode || (ULIDErrorCode = {}));
var ULIDError = class extends Error {
  constructor(errorCode, message) {
    super(`${message} (${errorCode})`);
    this.name = "ULIDError";
    this.code = errorCode;
  }
};
function randomChar(prng2) {
  const randomPosition = Math.floor(prng2() * ENCODING_LEN) % ENCODING_LEN;
  return ENCODING.charAt(randomPosition);
}
function replaceCharAt(str4, index, char) {
  if (index > str4.length - 1) {
    return str4;
  }
  return str4.substr(0, index) + char + str4.substr(index + 1);
}
function incrementBase32(str4) {
  let done = void 0, index = str4.length, char, charIndex, output = str4;
  const maxCharIndex = ENCODING_LEN - 1;
  while (!done && index-- >= 0) {
    char = output[index];
    charIndex = ENCODING.indexOf(char);
    if (charIndex === -1) {
      throw new ULIDError(ULIDErrorCode.Base32IncorrectEncoding, "Incorrectly encoded string");
    }
    if (charIndex === maxCharIndex) {
      output = replaceCharAt(output, index, ENCODING[0]);
      continue;
    }
    done = replaceCharAt(output, index, ENCODING[charIndex + 1]);
  }
  if (typeof done === "string") {
    return done;
  }
  throw new ULIDError(ULIDErrorCode.Base32IncorrectEncoding, "Failed incrementing string");
}
function detectPRNG(root) {
  const rootLookup = detectRoot();
  const globalCrypto = rootLookup && (rootLookup.crypto || rootLookup.msCrypto) || (typeof crypto !== "undefined" ? crypto : null);
  if (typeof globalCrypto?.getRandomValues === "function") {
    return () => {
      const buffer = new Uint8Array(1);
      globalCrypto.getRandomValues(buffer);
      return buffer[0] / 256;
    };
  } else if (typeof globalCrypto?.randomBytes === "function") {
    return () => globalCrypto.randomBytes(1).readUInt8() / 256;
  } else if (crypto?.randomBytes) {
    return () => crypto.randomBytes(1).readUInt8() / 256;
  }
  throw new ULIDError(ULIDErrorCode.PRNGDetectFailure, "Failed to find a reliable PRNG");
}
function detectRoot() {
  if (inWebWorker())
    return self;
  if (typeof window !== "undefined") {
    return window;
  }
  if (typeof global !== "undefined") {
    return global;
  }
  if (typeof globalThis !== "undefined") {
    return globalThis;
  }
  return null;
}
function encodeRandom(len, prng2) {
  let str4 = "";
  for (; len > 0; len--) {
    str4 = randomChar(prng2) + str4;
  }
  return str4;
}
function encodeTime(now, len = TIME_LEN) {
  if (isNaN(now)) {
    throw new ULIDError(ULIDErrorCode.EncodeTimeValueMalformed, `Time must be a number: ${now}`);
  } else if (now > TIME_MAX) {
    throw new ULIDError(ULIDErrorCode.EncodeTimeSizeExceeded, `Cannot encode a time larger than ${TIME_MAX}: ${now}`);
  } else if (now < 0) {
    throw new ULIDError(ULIDErrorCode.EncodeTimeNegative, `Time must be positive: ${now}`);
  } else if (Number.isInteger(now) === false) {
    throw new ULIDError(ULIDErrorCode.EncodeTimeValueMalformed, `Time must be an integer: ${now}`);
  }
  let mod, str4 = "";
  for (let currentLen = len; currentLen > 0; currentLen--) {
    mod = now % ENCODING_LEN;
    str4 = ENCODING.charAt(mod) + str4;
    now = (now - mod) / ENCODING_LEN;
  }
  return str4;
}
function inWebWorker() {
  return typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope;
}
function monotonicFactory(prng2) {
  const currentPRNG = prng2 || detectPRNG();
  let lastTime = 0, lastRandom;
  return function _ulid(seedTime) {
    const seed = !seedTime || isNaN(seedTime) ? Date.now() : seedTime;
    if (seed <= lastTime) {
      const incrementedRandom = lastRandom = incrementBase32(lastRandom);
      return encodeTime(lastTime, TIME_LEN) + incrementedRandom;
    }
    lastTime = seed;
    const newRandom = lastRandom = encodeRandom(RANDOM_LEN, currentPRNG);
    return encodeTime(seed, TIME_LEN) + newRandom;
  };
}

// server/src/core/ids.ts
var ULID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
function isUlid(s2) {
  return ULID_RE.test(s2);
}
var pool = new Uint8Array(256);
var at = pool.length;
function prng() {
  if (at === pool.length) {
    randomFillSync(pool);
    at = 0;
  }
  return pool[at++] / 256;
}
var next = monotonicFactory(prng);
function newId(now = Date.now()) {
  return next(now);
}

// server/src/core/store/pending.ts
var EXPIRED_GRACE_MS = 24 * 36e5;
var ID_RE = /^p_[0-9A-HJKMNP-TV-Z]{26}$/;
function pendingDir(storeDir) {
  return join4(storeDir, ".pending");
}
function newPendingId(now) {
  return `p_${newId(now.getTime())}`;
}
function checkPendingId(raw) {
  const id = typeof raw === "string" ? raw.trim() : "";
  if (!ID_RE.test(id)) {
    const shown2 = typeof raw === "string" ? JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}...` : raw) : String(raw);
    throw new MalformedIdError(`pending_id ${shown2} is not a pending write id: pass the pending_id memory_write returned, like p_01JQ3Z8V7M2K4T6Y9B1C3D5F7H`);
  }
  return id;
}
var fileOf = (dir, id) => join4(dir, `${id}.json`);
async function savePending(storeDir, entry) {
  const dir = pendingDir(storeDir);
  ensureOwnDirSync(dir);
  await writeFileAtomic(fileOf(dir, entry.pending_id), `${JSON.stringify(entry, null, 2)}
`);
}
async function readEntry(file) {
  if (!isOwnDirSync(dirname3(file))) return null;
  let text2;
  try {
    text2 = await fsp2.readFile(file, "utf8");
  } catch (err) {
    if (err.code === "ENOENT") return null;
    throw err;
  }
  try {
    const e = JSON.parse(text2);
    if (typeof e.expires_at !== "string" || typeof e.write !== "object" || e.write === null) throw new Error("missing fields");
    return e;
  } catch (err) {
    throw new Error(`pending write file ${file} is unreadable (${err.message}): delete it and write the memory again`);
  }
}
function expiredError(e) {
  return new PendingExpiredError(
    `pending write ${e.pending_id} expired at ${e.expires_at} (behavior.pending_ttl_minutes): nothing was stored; call memory_write again if the user still agrees`
  );
}
function unknownError(id) {
  return new NotFoundError(`no pending write with id ${id}: it was already confirmed or cancelled, or never existed`);
}
async function claimPending(storeDir, id, now) {
  const dir = pendingDir(storeDir);
  const file = fileOf(dir, id);
  const entry = await readEntry(file);
  if (!entry) throw unknownError(id);
  if (Date.parse(entry.expires_at) <= now.getTime()) throw expiredError(entry);
  const claimed = join4(dir, `.${id}.${process.pid}.${randomBytes2(4).toString("hex")}.claim`);
  try {
    await fsp2.rename(file, claimed);
  } catch (err) {
    if (err.code === "ENOENT") throw unknownError(id);
    throw err;
  }
  return {
    entry,
    done: () => fsp2.rm(claimed, { force: true }),
    release: () => fsp2.rename(claimed, file)
  };
}
async function dropPending(storeDir, id, now) {
  const file = fileOf(pendingDir(storeDir), id);
  const entry = await readEntry(file);
  if (!entry) return false;
  try {
    await fsp2.rm(file);
  } catch (err) {
    if (err.code === "ENOENT") return false;
    throw err;
  }
  return Date.parse(entry.expires_at) > now.getTime();
}
async function sweepPending(storeDir, now) {
  const dir = pendingDir(storeDir);
  if (!isOwnDirSync(dir)) return;
  let names;
  try {
    names = await fsp2.readdir(dir);
  } catch {
    return;
  }
  await Promise.all(
    names.map(async (name) => {
      const file = join4(dir, name);
      try {
        if (name.endsWith(".claim")) {
          const st = await fsp2.stat(file);
          if (now.getTime() - st.mtimeMs > EXPIRED_GRACE_MS) await fsp2.rm(file, { force: true });
          return;
        }
        if (!name.endsWith(".json")) return;
        const e = await readEntry(file);
        if (e && Date.parse(e.expires_at) + EXPIRED_GRACE_MS <= now.getTime()) await fsp2.rm(file, { force: true });
      } catch {
      }
    })
  );
}
async function listPending(storeDir, now) {
  const dir = pendingDir(storeDir);
  if (!isOwnDirSync(dir)) return [];
  let names;
  try {
    names = await fsp2.readdir(dir);
  } catch {
    return [];
  }
  const out2 = [];
  for (const name of names.filter((n) => ID_RE.test(n.replace(/\.json$/, "")) && n.endsWith(".json")).sort()) {
    try {
      const e = await readEntry(join4(dir, name));
      if (e && Date.parse(e.expires_at) > now.getTime()) out2.push(e);
    } catch {
    }
  }
  return out2;
}
function watchPending(storeDir, fn, intervalMs = 1e3) {
  const dir = pendingDir(storeDir);
  const stamp2 = () => {
    try {
      return statSync2(dir).mtimeMs;
    } catch {
      return -1;
    }
  };
  let last = stamp2();
  const timer = setInterval(() => {
    const now = stamp2();
    if (now !== last) {
      last = now;
      fn();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

// server/src/core/store/store.ts
import { promises as fsp7 } from "node:fs";
import { basename as basename4, dirname as dirname6, join as join11 } from "node:path";

// server/src/core/store/memfile.ts
var import_gray_matter = __toESM(require_gray_matter(), 1);

// server/src/core/types.ts
var SCHEMA_VERSION = 1;
var CONFIDENCES = ["low", "medium", "high"];
var SOURCES = ["explicit-statement", "inferred", "user-correction"];
var CATEGORIES = ["fact", "user-inference"];

// server/src/core/limits.ts
var LIMITS = {
  /** memory_search query length, in characters. */
  queryChars: 2e3,
  /** memory_search alternates: rephrasings per call (each at most queryChars). */
  alternates: 4,
  /** Aliases per memory (memory_write, memory_update), and the length of one. */
  aliases: 8,
  aliasChars: 100,
  /** memory_search max_results. */
  maxResults: 50,
  /** Scope filters per call, and the length of one filter. */
  scopeFilters: 20,
  scopeFilterChars: 200,
  /** Scopes per memory, and the length of one scope. */
  scopes: 16,
  scopeChars: 64,
  /** memory_show ids per call. */
  idsPerCall: 10,
  /** memory_merge: memories merged in one call (at least 2). */
  mergeIds: 10,
  /** memory_record_use ids per call. */
  useIds: 50,
  /** Page size of list and list_tombstones. */
  pageSize: 200,
  defaultPageSize: 50,
  /** Notes and reasons (verify note, remove reason, record_use note). */
  noteChars: 2e3,
  /** What the boundary accepts for content before the core applies behavior.max_body_chars. */
  contentChars: 1e6,
  /** Opaque strings: cursors, pending ids; and ISO dates. */
  tokenChars: 200,
  dateChars: 40,
  /** memory_health parameters. */
  healthWindowDays: 3650,
  healthTopK: 100,
  healthMinApplied: 1e4,
  /**
   * Characters of JSON any retrieval answer may hold (search, show, list, list_tombstones): the
   * default and the ceiling of `max_chars`; list pages end early (with next_cursor) to fit it.
   */
  responseChars: 16e3,
  /** memory_consolidate groups per page. */
  consolidateGroups: 50,
  defaultConsolidateGroups: 20,
  /** The smallest `max_chars` accepted. */
  minResponseChars: 300,
  /** cairn import --from: the largest source file read (a JSON export, a JSONL store, a note). */
  importFileBytes: 64 * 1024 * 1024
};

// server/src/core/scopes.ts
var import_picomatch = __toESM(require_picomatch2(), 1);
var SCOPE_RE = /^[a-z0-9]+(?:[-:][a-z0-9]+)*$/;
var MAX_SCOPE_LENGTH = LIMITS.scopeChars;
var MAX_SCOPES = LIMITS.scopes;
function validateScope(s2, arg = "scope") {
  if (typeof s2 !== "string" || s2 === "") throw new ValidationError(`${arg} must be a non-empty string like "tools" or "projects:foo"`);
  if (s2.length > MAX_SCOPE_LENGTH) throw new ValidationError(`${arg} "${s2.slice(0, 20)}..." is ${s2.length} characters: at most ${MAX_SCOPE_LENGTH} are allowed`);
  if (SCOPE_RE.test(s2)) return s2;
  const fixed = s2.toLowerCase().trim().replace(/[\s_/.]+/g, "-").replace(/[^a-z0-9:-]/g, "").replace(/([-:])[-:]+/g, "$1").replace(/^[-:]+|[-:]+$/g, "");
  if (s2 !== s2.toLowerCase() && SCOPE_RE.test(s2.toLowerCase())) {
    throw new ValidationError(`${arg} "${s2}" is not lowercase: use "${s2.toLowerCase()}"`);
  }
  const hint = SCOPE_RE.test(fixed) ? `: use "${fixed}"` : "";
  throw new ValidationError(`${arg} "${s2}" is not a valid scope (lowercase letters and digits, parts joined by "-" or ":")${hint}`);
}
function isGlob(filter) {
  return /[*?[\]{}!]/.test(filter);
}
function validateScopeFilter(f, arg = "scopes") {
  if (typeof f !== "string" || f === "") throw new ValidationError(`${arg} entries must be non-empty strings (a scope like "tools" or a glob like "projects:*")`);
  if (isGlob(f)) {
    if (f.length > 200) throw new ValidationError(`${arg} glob "${f.slice(0, 20)}..." is longer than 200 characters`);
    return f;
  }
  return validateScope(f, `${arg} entry`);
}
function scopeFilterMatcher(filters) {
  if (filters.length === 0) return () => true;
  const globs = filters.filter(isGlob).map((g) => (0, import_picomatch.default)(g, { dot: true }));
  const prefixes = filters.filter((f) => !isGlob(f));
  const one = (s2) => prefixes.some((p) => s2 === p || s2.startsWith(`${p}:`)) || globs.some((m) => m(s2) || m(s2.replace(/:/g, "/")));
  return (scopes) => scopes.some(one);
}
function scopeAllowed(scope, allowed) {
  return allowed.length === 0 || scopeFilterMatcher(allowed)([scope]);
}

// server/src/core/origin.ts
import { execFile } from "node:child_process";
import { readFileSync as readFileSync2 } from "node:fs";
import { isAbsolute as isAbsolute2, join as join5, resolve as resolve2 } from "node:path";
var GIT_TIMEOUT_MS = 2e3;
var CACHE_MS = 3e4;
function git(cwd, args, timeout = GIT_TIMEOUT_MS) {
  return new Promise((res) => {
    execFile("git", args, { cwd, timeout, windowsHide: true, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" } }, (err, stdout) => {
      res(err ? null : stdout);
    });
  });
}
var repoCache = /* @__PURE__ */ new Map();
async function repoInfo(cwd) {
  const hit = repoCache.get(cwd);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.info;
  const [out2, remote] = await Promise.all([git(cwd, ["rev-parse", "--show-toplevel", "--git-dir"]), git(cwd, ["config", "--get", "remote.origin.url"])]);
  let info = null;
  if (out2) {
    const [root, gitDir] = out2.trim().split("\n");
    if (root && gitDir) {
      const url = redactRemoteUrl(remote?.trim() || null);
      info = { root, gitDir: isAbsolute2(gitDir) ? gitDir : resolve2(cwd, gitDir), url };
    }
  }
  repoCache.set(cwd, { at: Date.now(), info });
  return info;
}
function currentBranch(gitDir) {
  try {
    const head = readFileSync2(join5(gitDir, "HEAD"), "utf8").trim();
    const m = /^ref: refs\/heads\/(.+)$/.exec(head);
    return m ? m[1] : null;
  } catch {
    return null;
  }
}
async function captureOrigin(cwd) {
  const info = await repoInfo(cwd);
  if (!info) return { cwd, repo: null, branch: null, worktree_root: null };
  return { cwd, repo: info.url, branch: currentBranch(info.gitDir), worktree_root: info.root };
}
var KEPT_USER = "git";
function redactRemoteUrl(url) {
  if (url === null || url === void 0) return null;
  const u2 = url.trim();
  const clean = redactTrimmed(u2);
  return clean === u2 ? url : clean;
}
function redactTrimmed(u2) {
  const scheme = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(u2);
  if (scheme) {
    let authority = scheme[2];
    const at2 = authority.lastIndexOf("@");
    if (at2 >= 0) {
      const user = authority.slice(0, at2);
      authority = (user === KEPT_USER ? `${user}@` : "") + authority.slice(at2 + 1);
    }
    const rest = scheme[3].replace(/[?#].*$/s, "");
    return `${scheme[1]}${authority}${rest}`;
  }
  const scp = /^(?:([^/]*)@)?([^@:/\\]+):(?!\/\/)(.*)$/s.exec(u2);
  if (scp && !/^[a-z]:[\\/]/i.test(u2)) {
    const user = scp[1];
    return `${user === KEPT_USER ? `${user}@` : ""}${scp[2]}:${scp[3].replace(/[?#].*$/s, "")}`;
  }
  return u2;
}
function hasUrlSecrets(url) {
  return url !== null && url !== void 0 && redactRemoteUrl(url) !== url;
}
var CASE_INSENSITIVE_HOSTS = /* @__PURE__ */ new Set(["github.com", "gitlab.com", "bitbucket.org"]);
var HOST_ALIASES = {
  "www.github.com": "github.com",
  "ssh.github.com": "github.com",
  "www.gitlab.com": "gitlab.com",
  "altssh.gitlab.com": "gitlab.com",
  "www.bitbucket.org": "bitbucket.org",
  "altssh.bitbucket.org": "bitbucket.org"
};
function normalizeRepoUrl(url) {
  if (!url) return null;
  let u2 = redactRemoteUrl(url);
  if (u2 === "") return null;
  let host = "";
  let path = "";
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(u2);
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.+)$/i.exec(u2);
  if (withScheme) {
    host = withScheme[1];
    path = withScheme[2];
  } else if (scp && !/^[a-z]:\\/i.test(u2)) {
    host = scp[1];
    path = scp[2];
  } else {
    u2 = u2.replace(/^file:\/\//, "");
    return `local${resolve2(u2).replace(/\.git\/?$/, "").replace(/\/+$/, "")}`;
  }
  path = path.replace(/\/+$/, "").replace(/\.git$/i, "").replace(/^\/+/, "");
  host = host.toLowerCase();
  host = HOST_ALIASES[host] ?? host;
  return `${host}/${CASE_INSENSITIVE_HOSTS.has(host) ? path.toLowerCase() : path}`;
}
async function repoRemotes(root) {
  const out2 = await git(root, ["config", "--get-regexp", "^remote\\..*\\.(url|pushurl)$"]);
  if (!out2) return [];
  const urls = [];
  for (const line of out2.split("\n")) {
    const sp = line.indexOf(" ");
    const url = sp < 0 ? "" : redactRemoteUrl(line.slice(sp + 1).trim());
    if (url !== "" && !urls.includes(url)) urls.push(url);
  }
  return urls;
}
function originRepoKey(o) {
  return normalizeRepoUrl(o.repo) ?? (o.worktree_root ? `root:${o.worktree_root}` : null);
}
async function resolveCaller(env, cwd) {
  const dir = env.CLAUDE_PROJECT_DIR && env.CLAUDE_PROJECT_DIR.trim() !== "" ? resolve2(cwd, env.CLAUDE_PROJECT_DIR) : cwd;
  const info = await repoInfo(dir);
  if (!info) return { cwd: dir, repoRoot: null, repoUrl: null, repoKey: null };
  return {
    cwd: dir,
    repoRoot: info.root,
    repoUrl: info.url,
    repoKey: originRepoKey({ repo: info.url, worktree_root: info.root })
  };
}

// server/src/core/store/canonical.ts
var PLAIN_SCALAR = /^[A-Za-z_/][A-Za-z0-9_/.~@+:=,-]*$/;
var YAML_WORDS = /^(?:true|false|null|yes|no|on|off|y|n)$/i;
function isPlainSafe(v) {
  return PLAIN_SCALAR.test(v) && !YAML_WORDS.test(v) && !v.endsWith(":") || isUlid(v);
}
var ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
var interned = /* @__PURE__ */ new Map();
function own(s2) {
  return Buffer.from(s2, "utf8").toString("utf8");
}
function intern(s2) {
  let v = interned.get(s2);
  if (v === void 0) {
    v = own(s2);
    if (interned.size < 2e5) interned.set(v, v);
  }
  return v;
}
function internOrNull(s2) {
  return s2 === null ? null : intern(s2);
}
var sharedScopes = /* @__PURE__ */ new Map();
var sharedOrigins = /* @__PURE__ */ new Map();
var SHARED_MAX = 5e4;
function sharedScopeList(scopes) {
  const key = scopes.join("\0");
  let v = sharedScopes.get(key);
  if (v === void 0) {
    v = Object.freeze(scopes.map(intern));
    if (sharedScopes.size < SHARED_MAX) sharedScopes.set(key, v);
  }
  return v;
}
var cleanOrigins = /* @__PURE__ */ new WeakSet();
function isSharedOrigin(o) {
  return cleanOrigins.has(o);
}
function sharedOrigin(cwd, repo, branch, worktree_root) {
  const key = JSON.stringify([cwd, repo, branch, worktree_root]);
  let v = sharedOrigins.get(key);
  if (v === void 0) {
    v = Object.freeze({ cwd: internOrNull(cwd), repo: internOrNull(redactRemoteUrl(repo)), branch: internOrNull(branch), worktree_root: internOrNull(worktree_root) });
    cleanOrigins.add(v);
    if (sharedOrigins.size < SHARED_MAX) sharedOrigins.set(key, v);
  }
  return v;
}
var NO_EXTRA = Object.freeze([]);
function member(allowed, v) {
  return allowed.find((a) => a === v);
}
function time(v, nullable) {
  if (v === "null") return nullable ? null : void 0;
  if (!ISO.test(v)) return void 0;
  const d = new Date(v);
  const iso = Number.isNaN(d.getTime()) ? "" : d.toISOString();
  return iso === v ? iso : void 0;
}
function scalar(v) {
  if (v === "null") return null;
  if (v.startsWith('"')) {
    try {
      const s2 = JSON.parse(v);
      return typeof s2 === "string" ? s2 : void 0;
    } catch {
      return void 0;
    }
  }
  return isPlainSafe(v) ? v : void 0;
}
function aliasList(v) {
  if (v === void 0 || !v.startsWith('["') || !v.endsWith('"]')) return void 0;
  let parsed;
  try {
    parsed = JSON.parse(v);
  } catch {
    return void 0;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return void 0;
  const out2 = [];
  for (const a of parsed) {
    if (typeof a !== "string" || a === "" || a.trim() !== a || out2.includes(a)) return void 0;
    out2.push(own(a));
  }
  return out2;
}
function trailingIds(L, key) {
  const v = field(L[L.length - 1], key);
  if (v === void 0) return void 0;
  if (!v.startsWith("[") || !v.endsWith("]")) return null;
  const ids2 = v.slice(1, -1).split(", ");
  if (ids2.length === 0 || ids2.some((id) => !isUlid(id)) || new Set(ids2).size !== ids2.length) return null;
  L.pop();
  return ids2.map(own);
}
function field(line, key) {
  if (line === void 0 || !line.startsWith(key) || line.charCodeAt(key.length) !== 58 || line.charCodeAt(key.length + 1) !== 32) return void 0;
  return line.slice(key.length + 2);
}
function parseCanonical(text2) {
  if (!text2.startsWith("---\nschema_version: 1\n")) return null;
  const close = text2.indexOf("\n---\n", 4);
  if (close === -1) return null;
  const head = text2.slice(4, close);
  if (head.includes("\r") || head.includes("	")) return null;
  const L = head.split("\n");
  const merging = trailingIds(L, "merging");
  const mergedFrom = trailingIds(L, "merged_from");
  if (merging === null || mergedFrom === null) return null;
  let verifiedHead;
  if (L[L.length - 1]?.startsWith("verified_head: ")) {
    verifiedHead = field(L[L.length - 1], "verified_head");
    if (verifiedHead === void 0 || !/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(verifiedHead)) return null;
    L.pop();
  }
  const hasAliases = L.length === 16 || L.length === 19;
  if (L.length !== 15 && L.length !== 18 && !hasAliases) return null;
  const id = field(L[1], "id");
  if (id === void 0 || !isUlid(id)) return null;
  const created = time(field(L[2], "created") ?? "", false);
  const updated = time(field(L[3], "updated") ?? "", false);
  const scopesText = field(L[4], "scopes");
  if (!created || !updated || scopesText === void 0 || !scopesText.startsWith("[") || !scopesText.endsWith("]")) return null;
  const scopes = scopesText.slice(1, -1).split(", ");
  if (scopes.length === 0 || scopes.some((s2) => !SCOPE_RE.test(s2)) || new Set(scopes).size !== scopes.length) return null;
  const confidence = member(CONFIDENCES, field(L[5], "confidence"));
  const source = member(SOURCES, field(L[6], "source"));
  const category = member(CATEGORIES, field(L[7], "category"));
  if (!confidence || !source || !category) return null;
  const lva = time(field(L[8], "last_verified_at") ?? "", true);
  const expires = time(field(L[9], "expires") ?? "", true);
  if (lva === void 0 || expires === void 0 || L[10] !== "origin:") return null;
  const origin = ["cwd", "repo", "branch", "worktree_root"].map((k, i) => scalar(field(L[11 + i], `  ${k}`) ?? "\0"));
  if (origin.some((v) => v === void 0)) return null;
  const record = {
    id: own(id),
    created,
    updated: updated === created ? created : updated,
    scopes: sharedScopeList(scopes),
    confidence,
    source,
    category,
    last_verified_at: lva,
    expires,
    origin: sharedOrigin(origin[0], origin[1], origin[2], origin[3]),
    body: own(text2.slice(close + 5).replace(/^\s*\n/, "").replace(/\s+$/, ""))
  };
  if (verifiedHead !== void 0) record.verified_head = own(verifiedHead);
  if (mergedFrom !== void 0) record.merged_from = mergedFrom;
  if (merging !== void 0) record.merging = merging;
  if (hasAliases) {
    const aliases = aliasList(field(L[L.length - 1], "aliases"));
    if (aliases === void 0) return null;
    record.aliases = aliases;
  }
  if (L.length >= 18) {
    const removed = time(field(L[15], "removed") ?? "", false);
    const reasonText = field(L[16], "removed_reason");
    const reason = reasonText?.startsWith('"') ? scalar(reasonText) : void 0;
    const session = scalar(field(L[17], "removed_session") ?? "\0");
    if (!removed || typeof reason !== "string" || session === void 0) return null;
    record.removed = removed;
    record.removed_reason = own(reason);
    record.removed_session = session === null ? null : intern(session);
  }
  return { record, extra: NO_EXTRA };
}

// server/src/core/store/memfile.ts
import { basename as basename2 } from "node:path";

// server/src/core/store/entries.ts
import { createHash } from "node:crypto";
var Skip = class {
  constructor(size2, mtimeMs, error) {
    this.size = size2;
    this.mtimeMs = mtimeMs;
    this.error = error;
  }
  size;
  mtimeMs;
  error;
};
var memOf = (e) => e instanceof Skip ? void 0 : e;
var errorOf = (e) => e instanceof Skip ? e.error : void 0;
var MAX_FILE_BYTES = 4 * 1024 * 1024;
var CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
function derivedId(fileName, created) {
  let t = Math.max(0, Math.min(Date.parse(created) || 0, 2 ** 48 - 1));
  let time2 = "";
  for (let i = 0; i < 10; i++) {
    time2 = CROCKFORD[t % 32] + time2;
    t = Math.floor(t / 32);
  }
  const h = createHash("sha256").update(fileName).digest();
  let rand = "";
  for (let i = 0; i < 16; i++) rand += CROCKFORD[h[i] % 32];
  return time2 + rand;
}
function storedMemory(rec, file, size2, mtimeMs, extra) {
  const ex = extra.length === 0 ? NO_EXTRA : extra.slice();
  const { id, created, scopes, confidence, source, category, expires, body, aliases } = rec;
  const updated = rec.updated === created ? created : rec.updated;
  const lva = rec.last_verified_at;
  const last_verified_at = lva === null ? null : lva === updated ? updated : lva === created ? created : lva;
  const origin = !isSharedOrigin(rec.origin) && hasUrlSecrets(rec.origin.repo) ? { ...rec.origin, repo: redactRemoteUrl(rec.origin.repo) } : rec.origin;
  if (aliases !== void 0 && aliases.length > 0) {
    const m2 = { id, created, updated, scopes, confidence, source, category, last_verified_at, expires, origin, body, aliases, file, tombstoned: false, size: size2, mtimeMs, extra: ex };
    if (rec.removed !== void 0) {
      m2.removed = rec.removed;
      m2.removed_reason = rec.removed_reason;
      m2.removed_session = rec.removed_session;
      m2.tombstoned = true;
    }
    if (rec.verified_head) m2.verified_head = rec.verified_head;
    mergeKeys(rec, m2);
    return m2;
  }
  let m;
  if (rec.removed === void 0) {
    m = { id, created, updated, scopes, confidence, source, category, last_verified_at, expires, origin, body, file, tombstoned: false, size: size2, mtimeMs, extra: ex };
  } else {
    const { removed, removed_reason, removed_session } = rec;
    m = { id, created, updated, scopes, confidence, source, category, last_verified_at, expires, origin, body, removed, removed_reason, removed_session, file, tombstoned: true, size: size2, mtimeMs, extra: ex };
  }
  if (rec.verified_head) m.verified_head = rec.verified_head;
  mergeKeys(rec, m);
  return m;
}
function mergeKeys(rec, m) {
  if (rec.merged_from && rec.merged_from.length > 0) m.merged_from = rec.merged_from;
  if (rec.merging && rec.merging.length > 0) m.merging = rec.merging;
}

// server/src/core/store/notes.ts
import { lstatSync as lstatSync2, readdirSync, rmSync as rmSync2 } from "node:fs";
import { join as join6 } from "node:path";

// server/src/core/store/pid.ts
import { readFileSync as readFileSync3 } from "node:fs";
function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}
var bootMs;
function pidStartMs(pid) {
  try {
    if (bootMs === void 0) {
      const m = /^btime (\d+)$/m.exec(readFileSync3("/proc/stat", "utf8"));
      bootMs = m ? Number(m[1]) * 1e3 : null;
    }
    if (bootMs === null) return null;
    const stat = readFileSync3(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? bootMs + ticks * 10 : null;
  } catch {
    return null;
  }
}

// server/src/core/store/notes.ts
var NOTES_DIR = "notes";
var MEMORIES_ROOT = "/memories";
var ROOT_NOTE_SCOPE = "notes";
var MAX_NOTE_DEPTH = 16;
var EPOCH = (/* @__PURE__ */ new Date(0)).toISOString();
function memoriesPath(rel) {
  return rel === "" ? MEMORIES_ROOT : `${MEMORIES_ROOT}/${rel}`;
}
function noteId(rel) {
  return derivedId(`${MEMORIES_ROOT}/${rel}`, EPOCH);
}
function noteScope(rel) {
  const parts = rel.split("/").slice(0, -1).map((p) => p.normalize("NFKD").replace(new RegExp("\\p{M}+", "gu"), "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")).filter((p) => p !== "");
  let scope = parts.join(":");
  while (scope.length > 64) scope = scope.slice(0, scope.lastIndexOf(":") > 0 ? scope.lastIndexOf(":") : 64);
  return scope !== "" && SCOPE_RE.test(scope) ? scope : ROOT_NOTE_SCOPE;
}
function noteRecord(file, rel, text2, size2, mtimeMs) {
  const when = new Date(Math.floor(mtimeMs)).toISOString();
  const rec = {
    id: noteId(rel),
    created: when,
    updated: when,
    scopes: sharedScopeList([noteScope(rel)]),
    confidence: "medium",
    source: "explicit-statement",
    category: "fact",
    last_verified_at: null,
    expires: null,
    origin: sharedOrigin(null, null, null, null),
    body: text2
  };
  const m = storedMemory(rec, file, size2, mtimeMs, []);
  m.note = memoriesPath(rel);
  return m;
}
function isNoteRel(rel) {
  if (rel === "") return false;
  const parts = rel.split(/[\\/]/);
  return parts.length <= MAX_NOTE_DEPTH + 1 && parts.every((p) => p !== "" && p !== ".." && !p.startsWith(".")) && !isTempName(parts[parts.length - 1]);
}
function pidOfTemp(name) {
  const m = /\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name);
  return m ? Number(m[1]) : 0;
}
function listNoteFiles(notesDir, add, onSymlink, cleanTemps) {
  const walk = (dir, prefix, depth) => {
    let names;
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const p = join6(dir, name);
      if (isTempName(name)) {
        const pid = pidOfTemp(name);
        if (cleanTemps && pid && pid !== process.pid && !pidAlive(pid)) rmSync2(p, { force: true });
        continue;
      }
      if (name.startsWith(".")) continue;
      let st;
      try {
        st = lstatSync2(p);
      } catch {
        continue;
      }
      const rel = prefix === "" ? name : `${prefix}/${name}`;
      if (st.isFile()) add(rel, st.size, st.mtimeMs);
      else if (st.isDirectory()) {
        if (depth < MAX_NOTE_DEPTH) walk(p, rel, depth + 1);
      } else if (st.isSymbolicLink()) onSymlink(p);
    }
  };
  walk(notesDir, "", 0);
}
function noteTombExtra(path, text2) {
  return [`note_path: ${quoted(path)}`, `note_text: ${quoted(text2)}`];
}
function quoted(v) {
  return JSON.stringify(v).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
function noteOfTombstone(m) {
  let path = null;
  let text2 = null;
  for (const block2 of m.extra) {
    const k = /^(note_path|note_text): (".*")$/s.exec(block2);
    if (!k) continue;
    try {
      const v = JSON.parse(k[2]);
      if (typeof v !== "string") continue;
      if (k[1] === "note_path") path = v;
      else text2 = v;
    } catch {
    }
  }
  return path !== null && text2 !== null ? { path, text: text2 } : null;
}

// server/src/core/store/memfile.ts
var KNOWN_KEYS = [
  "schema_version",
  "id",
  "created",
  "updated",
  "scopes",
  "confidence",
  "source",
  "category",
  "last_verified_at",
  "expires",
  "origin",
  "removed",
  "removed_reason",
  "removed_session",
  "aliases",
  "verified_head",
  "merged_from",
  "merging"
];
var COMMIT_SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
var KNOWN = new Set(KNOWN_KEYS);
var ParseError = class extends Error {
  name = "ParseError";
};
var refuse = () => {
  throw new ParseError("only YAML frontmatter is supported");
};
var MATTER_OPTIONS = { engines: { js: refuse, javascript: refuse, coffee: refuse, json: refuse } };
function shown(v) {
  if (typeof v === "string") return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}...` : v);
  if (v === null || typeof v !== "object" || v instanceof Date) return String(v);
  return Array.isArray(v) ? "a list" : "a mapping";
}
function toIso(v, key, nullable) {
  if (v === null || v === void 0 || v === "") {
    if (nullable) return null;
    throw new ParseError(`${key} is missing`);
  }
  const d = v instanceof Date ? v : typeof v === "string" ? new Date(v) : null;
  if (!d || Number.isNaN(d.getTime())) throw new ParseError(`${key} is not a date-time: ${shown(v)}`);
  return d.toISOString();
}
function oneOf(v, key, allowed, dflt) {
  if (v === void 0 || v === null) return dflt;
  const hit = allowed.find((a) => a === v);
  if (hit !== void 0) return hit;
  throw new ParseError(`${key} must be one of ${allowed.join(", ")}, got ${shown(v)}`);
}
function str2(v, key) {
  if (v === null || v === void 0) return null;
  if (typeof v === "object" && !(v instanceof Date)) throw new ParseError(`${key} must be text, got ${shown(v)}`);
  return typeof v === "string" ? v : String(v);
}
function parseOrigin(v) {
  if (v === null || v === void 0) return sharedOrigin(null, null, null, null);
  if (typeof v !== "object" || Array.isArray(v)) throw new ParseError("origin must be a mapping");
  const o = v;
  return sharedOrigin(str2(o.cwd, "origin.cwd"), str2(o.repo, "origin.repo"), str2(o.branch, "origin.branch"), str2(o.worktree_root, "origin.worktree_root"));
}
function splitBlocks(raw) {
  const blocks = [];
  for (const line of raw.split("\n")) {
    const m = /^(?:"([^"]+)"|'([^']+)'|([^\s#'"][^:]*?))\s*:(?:\s|$)/.exec(line);
    if (m) {
      blocks.push({ key: m[1] ?? m[2] ?? m[3] ?? null, text: line });
    } else if (/^\S/.test(line) || blocks.length === 0) {
      blocks.push({ key: null, text: line });
    } else {
      blocks[blocks.length - 1].text += `
${line}`;
    }
  }
  return blocks.map((b) => ({ key: b.key, text: b.text.replace(/\n+$/, "") })).filter((b) => b.text.trim() !== "");
}
function parseMemoryText(text2) {
  const src = text2.charCodeAt(0) === 65279 ? text2.slice(1) : text2;
  const fast = parseCanonical(src);
  if (fast) return fast;
  return parseGeneral(src);
}
function parseGeneral(src) {
  const firstLine = src.slice(0, src.indexOf("\n") === -1 ? src.length : src.indexOf("\n")).replace(/\r$/, "");
  if (firstLine !== "---") throw new ParseError('no YAML frontmatter (the file must start with a line "---")');
  let parsed;
  try {
    parsed = (0, import_gray_matter.default)(src, MATTER_OPTIONS);
  } catch (err) {
    throw new ParseError(`frontmatter is not valid YAML: ${err.message.split("\n")[0]}`);
  }
  const data = parsed.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ParseError("frontmatter is not a mapping of keys to values");
  }
  if (Object.keys(data).length === 0 && parsed.matter.trim() === "") throw new ParseError("frontmatter is empty");
  const sv = data.schema_version ?? SCHEMA_VERSION;
  if (typeof sv !== "number" || !Number.isInteger(sv) || sv < 1) throw new ParseError(`schema_version must be a positive whole number, got ${shown(sv)}`);
  if (sv > SCHEMA_VERSION) throw new ParseError(`schema_version ${sv} is newer than this cairn understands (${SCHEMA_VERSION}); upgrade cairn`);
  let id = null;
  if (data.id !== void 0 && data.id !== null) {
    if (typeof data.id !== "string" || !isUlid(data.id.toUpperCase())) throw new ParseError(`id is not a ULID: ${shown(data.id)}`);
    id = data.id.toUpperCase();
  }
  const rawScopes = typeof data.scopes === "string" ? [data.scopes] : data.scopes;
  if (!Array.isArray(rawScopes) || rawScopes.length === 0) throw new ParseError("scopes is missing or empty");
  const scopes = [];
  for (const s2 of rawScopes) {
    if (typeof s2 !== "string" || !SCOPE_RE.test(s2)) throw new ParseError(`scope ${shown(s2)} does not match ${SCOPE_RE.source}`);
    if (!scopes.includes(s2)) scopes.push(intern(s2));
  }
  const created = toIso(data.created, "created", true);
  const record = {
    id,
    created,
    updated: toIso(data.updated, "updated", true) ?? created,
    scopes: sharedScopeList(scopes),
    confidence: oneOf(data.confidence, "confidence", CONFIDENCES, "medium"),
    source: oneOf(data.source, "source", SOURCES, "explicit-statement"),
    category: oneOf(data.category, "category", CATEGORIES, "fact"),
    last_verified_at: toIso(data.last_verified_at, "last_verified_at", true),
    expires: toIso(data.expires, "expires", true),
    origin: parseOrigin(data.origin),
    body: own(parsed.content.replace(/^\s*\n/, "").replace(/\s+$/, ""))
  };
  if (typeof data.verified_head === "string" && COMMIT_SHA.test(data.verified_head.toLowerCase())) record.verified_head = own(data.verified_head.toLowerCase());
  if (data.removed !== void 0 && data.removed !== null) {
    record.removed = toIso(data.removed, "removed", false);
    record.removed_reason = own(str2(data.removed_reason, "removed_reason") ?? "");
    record.removed_session = internOrNull(str2(data.removed_session, "removed_session"));
  }
  const aliases = parseAliases(data.aliases);
  if (aliases.length > 0) record.aliases = aliases;
  const mergedFrom = idList(data.merged_from);
  if (mergedFrom && mergedFrom.length > 0) record.merged_from = mergedFrom;
  if (data.merging !== void 0 && data.merging !== null) {
    const merging = idList(data.merging, true);
    if (!merging || merging.length === 0) throw new ParseError(`merging must be a list of memory ids, got ${shown(data.merging)}`);
    record.merging = merging;
  }
  const extra = splitBlocks(parsed.matter.replace(/^\n/, "")).filter((b) => b.key === null ? !/^\s*$/.test(b.text) : !KNOWN.has(b.key)).map((b) => b.text);
  return { record, extra };
}
function idList(v, strict = false) {
  if (v === void 0 || v === null) return void 0;
  if (!Array.isArray(v)) return strict ? void 0 : [];
  const out2 = [];
  for (const a of v) {
    const id = typeof a === "string" ? a.toUpperCase() : "";
    if (!isUlid(id)) {
      if (strict) return void 0;
      continue;
    }
    if (!out2.includes(id)) out2.push(own(id));
  }
  return out2;
}
function idListLine(key, ids2) {
  return ids2 && ids2.length > 0 ? `${key}: [${ids2.join(", ")}]` : null;
}
function parseAliases(v) {
  if (v === void 0 || v === null) return [];
  const list2 = typeof v === "string" ? [v] : v;
  if (!Array.isArray(list2)) throw new ParseError(`aliases must be a list of texts, got ${shown(v)}`);
  const out2 = [];
  for (const a of list2) {
    if (typeof a !== "string" && typeof a !== "number") throw new ParseError(`aliases must be a list of texts, got an entry ${shown(a)}`);
    const t = String(a).trim();
    if (t !== "" && !out2.includes(t)) out2.push(own(t));
  }
  return out2;
}
function aliasesLine(aliases) {
  return aliases && aliases.length > 0 ? `aliases: [${aliases.map((a) => JSON.stringify(a)).join(", ")}]` : null;
}
function yamlScalar(v) {
  if (v === null) return "null";
  return isPlainSafe(v) ? v : JSON.stringify(v);
}
function serializeMemory(rec, extra = []) {
  const lines = [
    "---",
    `schema_version: ${SCHEMA_VERSION}`,
    `id: ${rec.id}`,
    `created: ${rec.created}`,
    `updated: ${rec.updated}`,
    `scopes: [${rec.scopes.join(", ")}]`,
    `confidence: ${rec.confidence}`,
    `source: ${rec.source}`,
    `category: ${rec.category}`,
    `last_verified_at: ${rec.last_verified_at ?? "null"}`,
    `expires: ${rec.expires ?? "null"}`,
    "origin:",
    `  cwd: ${yamlScalar(rec.origin.cwd)}`,
    `  repo: ${yamlScalar(redactRemoteUrl(rec.origin.repo))}`,
    `  branch: ${yamlScalar(rec.origin.branch)}`,
    `  worktree_root: ${yamlScalar(rec.origin.worktree_root)}`
  ];
  if (rec.removed !== void 0) {
    lines.push(`removed: ${rec.removed}`);
    lines.push(`removed_reason: ${JSON.stringify(rec.removed_reason ?? "")}`);
    lines.push(`removed_session: ${yamlScalar(rec.removed_session ?? null)}`);
  }
  const al = aliasesLine(rec.aliases);
  if (al !== null) lines.push(al);
  if (rec.verified_head) lines.push(`verified_head: ${rec.verified_head}`);
  const mf = idListLine("merged_from", rec.merged_from);
  if (mf !== null) lines.push(mf);
  const mg = idListLine("merging", rec.merging);
  if (mg !== null) lines.push(mg);
  lines.push(...extra, "---", rec.body.replace(/\s+$/, ""), "");
  return lines.join("\n");
}
function fileNameFor(rec, redact = (b) => b) {
  const words = redact(rec.body).normalize("NFKD").replace(new RegExp("\\p{M}+", "gu"), "").toLowerCase().replace(/[^a-z0-9\s]+/g, " ").split(/\s+/).filter(Boolean).slice(0, 6);
  let slug = words.join("-").slice(0, 60).replace(/-+$/, "");
  if (slug === "") slug = "memory";
  return `${rec.created.slice(0, 10)}-${slug}-${rec.id.slice(-6).toLowerCase()}.md`;
}
function fileEntry(p, text2, size2, mtimeMs, noteRel) {
  if (text2.includes("\0")) return new Skip(size2, mtimeMs, "is binary (contains NUL bytes)");
  if (noteRel !== null) return noteRecord(p, noteRel, text2, size2, mtimeMs);
  try {
    const { record, extra } = parseMemoryText(text2);
    const created = record.created ?? new Date(Math.floor(mtimeMs)).toISOString();
    const updated = record.updated ?? created;
    const idAssigned = record.id === null;
    const id = record.id ?? derivedId(basename2(p), created);
    const mem2 = storedMemory({ ...record, id, created, updated }, p, size2, mtimeMs, extra);
    if (idAssigned) mem2.idAssigned = true;
    return mem2;
  } catch (err) {
    return new Skip(size2, mtimeMs, err.message);
  }
}

// server/src/core/store/listing.ts
import { promises as fsp3, lstatSync as lstatSync4, readdirSync as readdirSync3, rmSync as rmSync3 } from "node:fs";
import { join as join7 } from "node:path";

// server/src/core/store/fileWorker.ts
import { lstatSync as lstatSync3, readFileSync as readFileSync4, readdirSync as readdirSync2 } from "node:fs";
import { Worker } from "node:worker_threads";
var BATCH = 512;
var AHEAD = 2;
function isListedName(name) {
  return name.endsWith(".md") && !name.startsWith(".");
}
var WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { lstatSync, readFileSync, readdirSync } = require('node:fs');
const isListedName = ${isListedName};
const isTempName = ${isTempName};
parentPort.on('message', (m) => {
  if (m === null) return parentPort.close();
  if (m.op === 'list') {
    let names;
    try {
      names = readdirSync(m.dir);
    } catch {
      return parentPort.postMessage(null);
    }
    m = { op: 'stat', prefix: m.prefix, names: names.filter(isListedName), temps: names.filter(isTempName) };
  }
  if (m.op === 'stat') {
    const n = m.names.length;
    const stats = new Float64Array(2 * n);
    const kinds = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const st = lstatSync(m.prefix + m.names[i], { throwIfNoEntry: false });
      if (st === undefined) continue;
      kinds[i] = st.isFile() ? 1 : st.isSymbolicLink() ? 2 : 3;
      stats[2 * i] = st.size;
      stats[2 * i + 1] = st.mtimeMs;
    }
    return parentPort.postMessage(m.temps ? { md: m.names, temps: m.temps, stats, kinds } : { stats, kinds }, [stats.buffer, kinds.buffer]);
  }
  const paths = m.paths;
  const out = new Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    try {
      out[i] = readFileSync(paths[i], 'utf8');
    } catch (err) {
      out[i] = { code: err && err.code, message: String(err && err.message) };
    }
  }
  parentPort.postMessage(out);
});
`;
function startWorker() {
  try {
    const w2 = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    w2.unref();
    return w2;
  } catch {
    return null;
  }
}
function nameStats(n) {
  return { stats: new Float64Array(2 * n), kinds: new Uint8Array(n) };
}
function statInto(prefix, names, from, to, out2) {
  for (let i = from; i < to; i++) {
    let st;
    try {
      st = lstatSync3(prefix + names[i]);
    } catch {
      continue;
    }
    out2.kinds[i] = st.isFile() ? 1 : st.isSymbolicLink() ? 2 : 3;
    out2.stats[2 * i] = st.size;
    out2.stats[2 * i + 1] = st.mtimeMs;
  }
}
function statNames(prefix, names, opts = {}) {
  return askOnce({ op: "stat", prefix, names }, opts, () => {
    const s2 = nameStats(names.length);
    statInto(prefix, names, 0, names.length, s2);
    return s2;
  });
}
async function askOnce(message, opts, here) {
  const w2 = opts.worker === false ? null : startWorker();
  if (w2 === null) {
    if (opts.worker === "only") throw new Error("no worker thread could start");
    return here();
  }
  try {
    return await new Promise((resolve7, reject) => {
      w2.once("message", resolve7);
      w2.once("error", reject);
      w2.once("exit", () => reject(new Error("the worker exited")));
      w2.postMessage(message);
    });
  } catch (err) {
    if (opts.worker === "only") throw err;
    return here();
  } finally {
    w2.removeAllListeners();
    w2.on("error", () => void 0);
    void w2.terminate();
  }
}
function listDir(dir, prefix, opts = {}) {
  return askOnce({ op: "list", dir, prefix }, opts, () => {
    let names;
    try {
      names = readdirSync2(dir);
    } catch {
      return null;
    }
    const md = names.filter(isListedName);
    const s2 = nameStats(md.length);
    statInto(prefix, md, 0, md.length, s2);
    return { md, temps: names.filter(isTempName), ...s2 };
  });
}
function readOne(p) {
  try {
    return readFileSync4(p, "utf8");
  } catch (err) {
    return { code: err.code, message: err.message };
  }
}
function isReadFailure(x) {
  return typeof x !== "string";
}
async function* readAhead(paths, opts = {}) {
  const batch = opts.batch ?? BATCH;
  const worker = opts.worker === false ? null : startWorker();
  let done = 0;
  if (worker !== null) {
    const w2 = worker;
    const arrived = [];
    let failed = null;
    let wake = null;
    const signal = () => {
      const f = wake;
      wake = null;
      f?.();
    };
    w2.on("message", (texts) => {
      arrived.push(texts);
      signal();
    });
    w2.on("error", (err) => {
      failed = err;
      signal();
    });
    w2.on("exit", () => {
      failed ??= new Error("reader exited");
      signal();
    });
    let asked = 0;
    const ask = () => {
      if (asked >= paths.length) return;
      const to = Math.min(paths.length, asked + batch);
      w2.postMessage({ op: "read", paths: paths.slice(asked, to) });
      asked = to;
    };
    try {
      for (let i = 0; i < AHEAD; i++) ask();
      while (done < paths.length && failed === null) {
        if (arrived.length === 0) {
          await new Promise((r) => wake = r);
          continue;
        }
        const texts = arrived.shift();
        ask();
        for (const t of texts) {
          done++;
          yield t;
        }
      }
    } finally {
      w2.removeAllListeners("exit");
      w2.postMessage(null);
      void w2.terminate();
    }
  }
  for (; done < paths.length; done++) yield readOne(paths[done]);
}

// server/src/core/store/listing.ts
var Listing = class {
  names = [];
  inDir = [];
  stats = new Float64Array(256);
  pathSet = null;
  /** Each directory as path.join would start a path in it (normalized, with its separator): a path is then one concatenation (join normalizes every time: ~40 ms per 50k paths). */
  prefixes;
  constructor(dirs) {
    this.prefixes = dirs.map(dirPrefix);
  }
  get length() {
    return this.names.length;
  }
  add(dir, name, size2, mtimeMs) {
    const i = this.names.length;
    if (2 * i + 2 > this.stats.length) {
      const grown = new Float64Array(this.stats.length * 2);
      grown.set(this.stats);
      this.stats = grown;
    }
    this.names.push(name);
    this.inDir.push(dir);
    this.stats[2 * i] = size2;
    this.stats[2 * i + 1] = mtimeMs;
  }
  path(i) {
    return this.pathIn(this.inDir[i], this.names[i]);
  }
  /** join(dirs[dir], name), as one concatenation for a plain file name */
  pathIn(dir, name) {
    return name.includes("/") ? join7(this.prefixes[dir], name) : this.prefixes[dir] + name;
  }
  size(i) {
    return this.stats[2 * i];
  }
  mtimeMs(i) {
    return this.stats[2 * i + 1];
  }
  /** Builds the path set has() uses, yielding every `every` paths (a server's background check). */
  async index(pause3, every) {
    if (this.pathSet) return;
    const set2 = /* @__PURE__ */ new Set();
    for (let i = 0; i < this.names.length; i++) {
      if (i % every === every - 1) await pause3();
      set2.add(this.path(i));
    }
    this.pathSet = set2;
  }
  has(p) {
    if (!this.pathSet) {
      this.pathSet = /* @__PURE__ */ new Set();
      for (let i = 0; i < this.names.length; i++) this.pathSet.add(this.path(i));
    }
    return this.pathSet.has(p);
  }
};
function pidOfTemp2(name) {
  const m = /\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name);
  return m ? Number(m[1]) : 0;
}
function removeIfDeadTemp(dir, name) {
  const pid = pidOfTemp2(name);
  if (pid && pid !== process.pid && !pidAlive(pid)) rmSync3(join7(dir, name), { force: true });
}
function cleanDeadTemps(dirs) {
  for (const d of dirs) {
    let names;
    try {
      names = readdirSync3(d);
    } catch {
      continue;
    }
    for (const name of names) if (isTempName(name)) removeIfDeadTemp(d, name);
  }
}
function dirPrefix(dir) {
  return join7(dir, "x").slice(0, -1);
}
var PAUSE_EVERY = 16;
var AHEAD_MIN_DIR_BYTES = 64 * 1024;
function listAhead(dir) {
  const st = lstatSync4(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory() || st.size < AHEAD_MIN_DIR_BYTES) return null;
  const listed = listDir(dir, dirPrefix(dir));
  listed.catch(() => void 0);
  return listed;
}
async function listStoreFiles(dirs, cleanTemps, onSymlink, flat = dirs.length, pause3, ahead) {
  const found = new Listing(dirs);
  for (let di = 0; di < flat; di++) {
    const d = dirs[di];
    const prefix = found.pathIn(di, "");
    const listed = await ahead?.get(d) ?? await listHere(d, prefix, pause3);
    if (listed === null) continue;
    if (cleanTemps) for (const name of listed.temps) removeIfDeadTemp(d, name);
    const { md, kinds, stats } = listed;
    for (let i = 0; i < md.length; i++) {
      const kind = kinds[i];
      if (kind === 1) found.add(di, md[i], stats[2 * i], stats[2 * i + 1]);
      else if (kind === 2) onSymlink(prefix + md[i]);
    }
  }
  return found;
}
async function listHere(d, prefix, pause3) {
  let names;
  try {
    names = await fsp3.readdir(d);
  } catch (err) {
    if (err.code === "ENOENT") return null;
    throw err;
  }
  const md = [];
  const temps = [];
  let k = 0;
  for (const name of names) {
    if (pause3 && ++k % (PAUSE_EVERY * 64) === 0) await pause3();
    if (isTempName(name)) temps.push(name);
    else if (isListedName(name)) md.push(name);
  }
  return { md, temps, ...await statAll(prefix, md, pause3) };
}
var STAT_AHEAD_MIN = 4e3;
var STAT_AHEAD_MIN_PAUSED = 1e5;
async function statAll(prefix, names, pause3) {
  const n = names.length;
  const s2 = nameStats(n);
  if (n >= (pause3 ? STAT_AHEAD_MIN_PAUSED : STAT_AHEAD_MIN)) {
    const cut = pause3 ? 0 : n >> 1;
    const theirs = statNames(prefix, cut === 0 ? names : names.slice(cut));
    statInto(prefix, names, 0, cut, s2);
    const t = await theirs;
    s2.stats.set(t.stats, 2 * cut);
    s2.kinds.set(t.kinds, cut);
    return s2;
  }
  for (let from = 0; from < n; from += PAUSE_EVERY) {
    if (pause3 && from > 0) await pause3();
    statInto(prefix, names, from, Math.min(n, from + PAUSE_EVERY), s2);
  }
  return s2;
}

// server/src/core/store/writing.ts
import { promises as fsp6, lstatSync as lstatSync6, statSync as statSync3 } from "node:fs";
import { basename as basename3, dirname as dirname5, join as join10 } from "node:path";

// server/src/core/store/lock.ts
import { promises as fsp4, linkSync, lstatSync as lstatSync5, openSync as openSync2, closeSync as closeSync2, readFileSync as readFileSync5, unlinkSync, writeFileSync, writeSync as writeSync2 } from "node:fs";
import { randomBytes as randomBytes3 } from "node:crypto";
import { hostname } from "node:os";
import { join as join8 } from "node:path";
var STALE_MS = 3e4;
var HOST = hostname();
var REUSED_PID_SLACK_MS = 2e3;
var sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function unlinkQuiet(file) {
  try {
    unlinkSync(file);
  } catch (err) {
    if (err.code !== "ENOENT") throw err;
  }
}
var StoreLock = class {
  constructor(dir, timeoutMs = 15e3, staleMs = STALE_MS) {
    this.dir = dir;
    this.timeoutMs = timeoutMs;
    this.staleMs = staleMs;
    this.file = join8(dir, ".lock");
  }
  dir;
  timeoutMs;
  staleMs;
  file;
  /** In-process queue: callers in one process take turns before touching the file lock. */
  tail = Promise.resolve();
  /** Runs fn while holding the store lock; releases it whatever fn does. */
  async run(fn) {
    const prev = this.tail;
    let done;
    this.tail = new Promise((r) => done = r);
    try {
      await prev;
      const token = await this.acquire();
      try {
        return await fn();
      } finally {
        await this.release(token);
      }
    } finally {
      done();
    }
  }
  /**
   * Removes the lock only if it is still the one we created (compared by its token). The lock's
   * own file steps are synchronous calls (microseconds each; a thread-pool round trip costs far
   * more on a busy machine and every write takes and releases the lock); waiting stays async.
   */
  async release(token) {
    let text2;
    try {
      text2 = readFileSync5(this.file, "utf8");
    } catch {
      text2 = null;
    }
    if (text2 === null || parseLock(text2).token !== token) return;
    unlinkQuiet(this.file);
  }
  /** Takes the lock; returns the token written into it. */
  async acquire() {
    await ensureDir(this.dir);
    const deadline = Date.now() + this.timeoutMs;
    let wait = 1;
    for (; ; ) {
      const token = randomBytes3(8).toString("hex");
      if (this.tryCreate(token)) return token;
      await this.breakIfStale();
      if (Date.now() > deadline) {
        throw new LockTimeoutError(`the store lock ${this.file} is held by another process; try again, or delete the file if no cairn process is running`);
      }
      await sleep(wait + Math.random() * wait);
      wait = Math.min(wait * 2, 25);
    }
  }
  /**
   * Creates the lock file whole. open(O_EXCL) then write leaves an EMPTY lock if the process is
   * killed between the two (a reader sees one about 1 time in 10 under load), and an empty lock
   * can only be broken by age: every store write waits STALE_MS. So the line is written to a temp
   * file first and hard-linked into place (link fails with EEXIST if the lock exists); a
   * filesystem without hard links falls back to open(O_EXCL). A temp left by a kill is named like
   * every other temp file and removed by the next load once its pid is gone.
   */
  tryCreate(token) {
    const line = `${process.pid} ${HOST} ${Date.now()} ${token}
`;
    if (!this.noLinks) {
      try {
        lstatSync5(this.file);
        return false;
      } catch {
      }
      const tmp = join8(this.dir, `.lock.${process.pid}.${randomBytes3(4).toString("hex")}.tmp`);
      writeFileSync(tmp, line, { mode: FILE_MODE, flag: "wx" });
      try {
        linkSync(tmp, this.file);
        return true;
      } catch (err) {
        const code = err.code;
        if (code === "EEXIST") return false;
        if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw err;
        this.noLinks = true;
      } finally {
        unlinkQuiet(tmp);
      }
    }
    try {
      const fd = openSync2(this.file, "wx", FILE_MODE);
      try {
        writeSync2(fd, line);
      } finally {
        closeSync2(fd);
      }
      return true;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      return false;
    }
  }
  noLinks = false;
  async breakIfStale() {
    let text2;
    let mtimeMs;
    try {
      const st = await fsp4.lstat(this.file);
      if (!st.isFile()) {
        const aside2 = `${this.file}.stale.${process.pid}.${Date.now()}`;
        await fsp4.rename(this.file, aside2).then(() => fsp4.rm(aside2, { force: true, recursive: true }), () => {
        });
        return;
      }
      mtimeMs = st.mtimeMs;
      text2 = await fsp4.readFile(this.file, "utf8");
    } catch {
      return;
    }
    const { pid, host, time: time2 } = parseLock(text2);
    const since = time2 ?? mtimeMs;
    const local = pid !== null && host === HOST;
    let stale;
    if (local) {
      const started = pidStartMs(pid);
      stale = !pidAlive(pid) || started !== null && started > since + REUSED_PID_SLACK_MS;
    } else {
      stale = Date.now() - since >= this.staleMs;
    }
    if (!stale) return;
    const aside = `${this.file}.stale.${process.pid}.${Date.now()}`;
    try {
      await fsp4.rename(this.file, aside);
    } catch {
      return;
    }
    const moved = await fsp4.readFile(aside, "utf8").catch(() => "");
    if (moved !== text2) {
      await fsp4.link(aside, this.file).catch(() => {
      });
    }
    await fsp4.rm(aside, { force: true });
  }
};
function parseLock(text2) {
  const [pidText, host, timeText, token] = text2.trim().split(" ");
  const pid = Number(pidText);
  const time2 = Number(timeText);
  return {
    pid: Number.isInteger(pid) && pid > 0 ? pid : null,
    host: host || null,
    time: Number.isFinite(time2) && time2 > 0 ? time2 : null,
    token: token || null
  };
}

// server/src/core/store/reading.ts
import { promises as fsp5 } from "node:fs";
import { dirname as dirname4 } from "node:path";

// server/src/core/store/slices.ts
var SLICE_MS = 0.25;
var DRAIN_STEP = 32;
var resumedAt = 0;
var RESOLVED = Promise.resolve();
function sliceYield() {
  if (performance.now() - resumedAt < SLICE_MS) return RESOLVED;
  return new Promise(
    (r) => setImmediate(() => {
      resumedAt = performance.now();
      r();
    })
  );
}
var Backlog = class {
  constructor(n, step) {
    this.n = n;
    this.step = step;
  }
  n;
  step;
  next = 0;
  /** The first item not done yet. */
  get at() {
    return this.next;
  }
  get done() {
    return this.next >= this.n;
  }
  /** Does the items up to (not including) `upTo`, at most to the end. */
  doUpTo(upTo) {
    const end = Math.min(this.n, upTo);
    for (let i = this.next; i < end; i++) this.step(i);
    this.next = Math.max(this.next, end);
  }
  finish() {
    this.doUpTo(this.n);
  }
  /** Items still to do. */
  get left() {
    return Math.max(0, this.n - this.next);
  }
  /** Whether `test` holds for an item still to do (a scan: no item is done). */
  someLeft(test) {
    for (let i = this.next; i < this.n; i++) if (test(i)) return true;
    return false;
  }
  /**
   * At most `slice` items and at most SLICE_MS of them, then `pause`, until none is left (finish()
   * may end it sooner). Bounded by time, not only by count: 2,048 store records or 4,096 index ids
   * a slice were 2-4 ms each at 200k memories, and a write, which waits for a slice at each of its
   * disk waits, took ~20 ms instead of ~6 while the background entered them.
   */
  async drain(pause3, slice) {
    while (!this.done) {
      const t0 = performance.now();
      const end = this.next + slice;
      do
        this.doUpTo(Math.min(end, this.next + DRAIN_STEP));
      while (!this.done && this.next < end && performance.now() - t0 < SLICE_MS);
      await pause3();
    }
  }
};

// server/src/core/store/table.ts
import { sep, join as join9 } from "node:path";

// server/src/core/store/tailFilter.ts
var STEP = 64;
var NamesToEnter = class {
  constructor(recs, left) {
    this.recs = recs;
    this.left = left;
  }
  recs;
  left;
  filter = null;
  to = 0;
  holds(p, id) {
    const f = this.upTo(this.recs.length);
    if (!f.mayHold(p) && (id === null || !f.mayHold(id))) return false;
    return this.left.someLeft((i) => this.recs[i].file === p || id !== null && this.recs[i].id === id);
  }
  /** Makes the filter in slices of SLICE_MS, `pause` between them, while `live()`. */
  async make(pause3, live2) {
    this.begun();
    while (live2() && this.to < this.recs.length) {
      const t0 = performance.now();
      do
        this.upTo(Math.min(this.recs.length, this.to + STEP));
      while (this.to < this.recs.length && performance.now() - t0 < SLICE_MS);
      await pause3();
    }
  }
  /** The filter, begun at the record the backlog is at (those before are entered). */
  begun() {
    if (this.filter === null) {
      this.filter = new TailFilter(2 * this.left.left);
      this.to = this.left.at;
    }
    return this.filter;
  }
  upTo(end) {
    const f = this.begun();
    for (let i = this.to; i < end; i++) {
      const m = this.recs[i];
      f.add(m.file);
      f.add(m.id);
    }
    this.to = Math.max(this.to, end);
    return f;
  }
};
var TailFilter = class {
  table;
  mask;
  constructor(capacity) {
    let size2 = 16;
    while (size2 < 2 * capacity) size2 *= 2;
    this.table = new Int32Array(size2);
    this.mask = size2 - 1;
  }
  add(s2) {
    const h = tailHash(s2);
    const t = this.table;
    let i = h & this.mask;
    while (t[i] !== 0 && t[i] !== h) i = i + 1 & this.mask;
    t[i] = h;
  }
  mayHold(s2) {
    const h = tailHash(s2);
    const t = this.table;
    for (let i = h & this.mask; t[i] !== 0; i = i + 1 & this.mask) if (t[i] === h) return true;
    return false;
  }
};
var TAIL = 24;
function tailHash(s2) {
  let h = 2166136261;
  for (let i = Math.max(0, s2.length - TAIL); i < s2.length; i++) h = Math.imul(h ^ s2.charCodeAt(i), 16777619);
  return h === 0 ? 1 : h;
}

// server/src/core/store/table.ts
var StoreViews = class {
  dir;
  tombDir;
  /** The notes area (store/notes.ts): every file under it is a note. */
  notesDir;
  /** notesDir and a separator: what every note's path starts with */
  notesPrefix;
  filesMap = /* @__PURE__ */ new Map();
  /** id -> the file(s) claiming it: one path (the norm) or several (hand copies). */
  ownersMap = /* @__PURE__ */ new Map();
  /**
   * Records adopt() took but has not yet put under their paths and as their ids' owners (nor, for
   * a cache of unique ids, in their views): entered at the first use of any of these maps (the
   * background check right after the first answer), not before it. At 200k memories, ~250 ms.
   */
  unentered = null;
  /** The records `unentered` steps through (adopt()'s argument). */
  unenteredRecords = null;
  /** Which names the records still to enter may hold (stillToEnter); dropped once all are entered. */
  toEnter = null;
  /** With `seed`: the removed ones of adopt()'s records, which tombstones() answers from meanwhile (picked out on its first call). */
  seedTombs = null;
  activeMap = /* @__PURE__ */ new Map();
  tombMap = /* @__PURE__ */ new Map();
  /** Records carrying `merging` (a merge in progress or interrupted): in no other view. */
  mergingMap = /* @__PURE__ */ new Map();
  /**
   * The active ones of adopt()'s records when the views too are left to enter (a cache whose ids
   * are known to be unique: ~150 ms of map entries at 200k memories that the first answer does not
   * need); active() and activeCount answer from them meanwhile. Null once entered, or when adopt()
   * placed them.
   */
  seed = null;
  /** The views by id, entered first if adopt() left them to enter. */
  get activeById() {
    if (this.seed !== null) this.enterAdopted();
    return this.activeMap;
  }
  get tombById() {
    if (this.seed !== null) this.enterAdopted();
    return this.tombMap;
  }
  get mergingById() {
    if (this.seed !== null) this.enterAdopted();
    return this.mergingMap;
  }
  listeners = /* @__PURE__ */ new Set();
  warn;
  readOnly;
  nameText;
  constructor(dir, opts = {}) {
    this.readOnly = opts.readOnly ?? false;
    this.nameText = opts.nameText ?? ((b) => b);
    this.dir = dir;
    this.tombDir = join9(dir, ".tombstones");
    this.notesDir = join9(dir, NOTES_DIR);
    this.notesPrefix = this.notesDir + sep;
    this.warn = opts.warn ?? ((m) => process.stderr.write(`cairn: ${m}
`));
  }
  /**
   * True while the views hold exactly the records adopt() was last given, notes and memories
   * created since (enterCreated) aside (no id claimed twice, nothing else touched since): where
   * each adopted record is, its flags then say.
   */
  get holdsAdoptedAsIs() {
    return this.unentered !== null;
  }
  /**
   * Whether `r` is the store's record for its id now: 1 active, 2 removed, 0 neither (re-read,
   * deleted, a note, a merge). For a record adopt() was last given, while holdsAdoptedAsIs, its
   * flags say it (no lookup); otherwise the views are asked.
   */
  whereIs(r) {
    if (this.unentered !== null) {
      if (r.file.startsWith(this.notesPrefix)) return 0;
      return r.merging ? 0 : r.tombstoned ? 2 : 1;
    }
    return this.activeById.get(r.id) === r ? 1 : this.tombById.get(r.id) === r ? 2 : 0;
  }
  /** The view a record belongs in by its flags (the map itself: nothing is entered first). */
  viewFor(m) {
    return m.merging ? this.mergingMap : m.tombstoned ? this.tombMap : this.activeMap;
  }
  get files() {
    this.enterAdopted();
    return this.filesMap;
  }
  get owners() {
    this.enterAdopted();
    return this.ownersMap;
  }
  /** Enters the rest of the adopted records under their paths and as owners. */
  enterAdopted() {
    if (this.unentered === null) return;
    this.unentered.finish();
    this.unentered = null;
    this.unenteredRecords = null;
    this.toEnter = null;
    this.seed = null;
    this.seedTombs = null;
    const twice = this.claimedTwice;
    this.claimedTwice = null;
    if (twice) for (const id of twice) this.elect(id);
  }
  /** Ids enterOne() met twice (a cache that said its ids were unique, and was wrong): elected once all are in. */
  claimedTwice = null;
  /**
   * Enters one adopted record (a step of adopt()'s backlog) under its path and as its id's owner,
   * and in its view if adopt() left that too (`view`). An id met twice is elected at the end.
   */
  enterOne(m, view2) {
    if (this.noteRel(m.file) !== null) return;
    this.filesMap.set(m.file, m);
    const cur = this.ownersMap.get(m.id);
    if (cur === void 0) {
      this.ownersMap.set(m.id, m.file);
      if (view2) this.viewFor(m).set(m.id, m);
      return;
    }
    this.addOwner(m.id, m.file);
    (this.claimedTwice ??= []).push(m.id);
  }
  // ---- reading ---------------------------------------------------------------------------
  active() {
    return this.seed !== null ? this.seed.values() : this.activeMap.values();
  }
  tombstones() {
    const recs = this.unenteredRecords;
    if (this.seed === null || recs === null) return this.tombById.values();
    return (this.seedTombs ??= recs.filter((m) => m.tombstoned && !m.merging && !m.file.startsWith(this.notesPrefix))).values();
  }
  get activeCount() {
    return this.seed !== null ? this.seed.length : this.activeMap.size;
  }
  get(id) {
    return this.activeById.get(id);
  }
  getTombstone(id) {
    return this.tombById.get(id);
  }
  /** Whether this store has the id at all, active or removed (a team copy of it is then shadowed). */
  holds(id) {
    return this.activeById.has(id) || this.tombById.has(id);
  }
  skipped() {
    const out2 = [];
    for (const [file, e] of this.files) if (e instanceof Skip) out2.push({ file, reason: e.error });
    return out2.sort((a, b) => a.file.localeCompare(b.file));
  }
  /** size and mtime of every file as last seen: what a persisted cache validates against. */
  fileStats() {
    return this.files;
  }
  onChange(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  /** A path's place in the notes area ("projects/a.md"), or null when it is not a note's path. */
  noteRel(p) {
    if (!p.startsWith(this.notesPrefix)) return null;
    const rel = p.slice(this.notesDir.length + 1).split(sep).join("/");
    return isNoteRel(rel) ? rel : null;
  }
  /** A note's path, or a memory file's (`*.md`, not hidden) right in the store or .tombstones/. No allocation: a start from the cache asks it of every record. */
  isMemoryPath(p) {
    if (p.startsWith(this.notesPrefix)) return this.noteRel(p) !== null;
    const cut = p.lastIndexOf(sep);
    if (cut < 0 || !p.endsWith(".md") || p.charCodeAt(cut + 1) === 46) return false;
    return cut === this.dir.length && p.startsWith(this.dir) || cut === this.tombDir.length && p.startsWith(this.tombDir);
  }
  /** Paths of the notes area this view knows (syncNotes never walks every file). */
  notePaths = /* @__PURE__ */ new Set();
  /** The entry known for a path; a path entered already is answered without entering the adopted records. */
  entryAt(p) {
    if (this.unentered !== null) {
      const e = this.filesMap.get(p);
      if (e !== void 0) return e;
    }
    return this.files.get(p);
  }
  /**
   * Whether a path is a known file. Adopted records still to enter are looked up, not entered
   * (see enterCreated).
   */
  isKnownPath(p) {
    return this.filesMap.has(p) || this.stillToEnter(p, null);
  }
  /**
   * Whether a record still to enter has path `p` or id `id`: asked of a filter of their paths and
   * ids (tailFilter.ts), made by the background check (makeFilter) or, when a write comes first,
   * at once. Before it every write scanned each such record twice (~10-20 ms a scan at 200k
   * memories), and the writes of a store's first seconds, made while the background entered
   * them, all paid it.
   */
  stillToEnter(p, id) {
    return this.namesToEnter()?.holds(p, id) ?? false;
  }
  /** The names of the records still to enter, null when none is. */
  namesToEnter() {
    const recs = this.unenteredRecords;
    const left = this.unentered;
    if (left === null || recs === null) return null;
    return this.toEnter ??= new NamesToEnter(recs, left);
  }
  /**
   * Makes the filter of the records still to enter a slice at a time (a server's background
   * check, before it enters them): a write made in the first seconds after a big store's start
   * then finds it made instead of making it (~90 ms at 200k memories, ~0.5 s at 1M).
   */
  async makeFilter(pause3) {
    const left = this.unentered;
    await this.namesToEnter()?.make(pause3, () => this.unentered === left);
  }
  /**
   * Enters a memory just written as a new file while adopted records are still to enter, without
   * entering them first (at 200k memories ~0.5 s, right after a start): only when neither its path
   * nor its id is known or among those records (stillToEnter), so nothing they hold can conflict
   * with it. False when it cannot: the caller then uses setEntry().
   */
  enterCreated(p, mem2) {
    if (this.unentered === null || mem2.tombstoned || mem2.merging || this.noteRel(p) !== null) return false;
    const id = mem2.id;
    if (this.filesMap.has(p) || this.ownersMap.has(id) || this.activeMap.has(id) || this.tombMap.has(id) || this.mergingMap.has(id)) return false;
    if (this.stillToEnter(p, id)) return false;
    this.filesMap.set(p, mem2);
    this.ownersMap.set(id, p);
    this.activeMap.set(id, mem2);
    this.seed?.push(mem2);
    for (const fn of this.listeners) fn({ kind: "upsert", mem: mem2 });
    return true;
  }
  setEntry(p, entry) {
    if (this.noteRel(p) !== null) this.notePaths.add(p);
    const old = this.files.get(p);
    const oldId = memOf(old)?.id;
    const error = errorOf(entry);
    if (errorOf(old) && !error) this.warnOnce.delete(p);
    this.files.set(p, entry);
    if (error && this.warnOnce.get(p) !== error) {
      this.warnOnce.set(p, error);
      this.warn(`skipped ${p}: ${error}`);
    }
    const mem2 = memOf(entry);
    if (oldId) this.removeOwner(oldId, p);
    if (mem2) this.addOwner(mem2.id, p);
    if (oldId && oldId !== mem2?.id) this.elect(oldId);
    if (mem2) this.elect(mem2.id);
  }
  /** On the map itself: every caller has entered the adopted records first, or is entering them (enterOne). */
  addOwner(id, p) {
    const owners = this.ownersMap;
    const cur = owners.get(id);
    if (cur === void 0) owners.set(id, p);
    else if (typeof cur === "string") {
      if (cur !== p) owners.set(id, [cur, p]);
    } else if (!cur.includes(p)) cur.push(p);
  }
  removeOwner(id, p) {
    const cur = this.owners.get(id);
    if (cur === p) this.owners.delete(id);
    else if (Array.isArray(cur)) {
      const rest = cur.filter((q) => q !== p);
      if (rest.length === 0) this.owners.delete(id);
      else this.owners.set(id, rest.length === 1 ? rest[0] : rest);
    }
  }
  ownersOf(id) {
    const cur = this.owners.get(id);
    return cur === void 0 ? [] : typeof cur === "string" ? [cur] : cur.slice();
  }
  warnOnce = /* @__PURE__ */ new Map();
  dropPath(p) {
    const old = this.files.get(p);
    this.files.delete(p);
    this.notePaths.delete(p);
    this.warnOnce.delete(p);
    const id = memOf(old)?.id;
    if (id) {
      this.removeOwner(id, p);
      this.elect(id);
    }
  }
  /**
   * Decides which file holds an id. Two files claiming one id (a hand copy) resolve
   * deterministically: the later of updated/removed wins, then the path that sorts first;
   * the loser is reported as skipped.
   */
  elect(id) {
    const paths = this.ownersOf(id);
    if (paths.length === 0) this.owners.delete(id);
    const cands = paths.map((p) => memOf(this.files.get(p))).filter((m) => m !== void 0);
    const stamp2 = (m) => m.removed && m.removed > m.updated ? m.removed : m.updated;
    cands.sort((a, b) => stamp2(a) === stamp2(b) ? a.file.localeCompare(b.file) : stamp2(a) > stamp2(b) ? -1 : 1);
    const winner = cands[0];
    for (const loser of cands.slice(1)) {
      const reason = `duplicate id ${id}: ${winner.file} is used instead`;
      if (this.warnOnce.get(loser.file) !== reason) {
        this.warnOnce.set(loser.file, reason);
        this.warn(`skipped ${loser.file}: ${reason}`);
      }
    }
    const prev = this.activeById.get(id) ?? this.tombById.get(id);
    this.activeById.delete(id);
    this.tombById.delete(id);
    this.mergingById.delete(id);
    if (winner?.merging) {
      this.mergingById.set(id, winner);
      if (prev) for (const fn of this.listeners) fn({ kind: "delete", prev });
      return;
    }
    if (winner) (winner.tombstoned ? this.tombById : this.activeById).set(id, winner);
    if (prev === winner) return;
    const change = winner ? { kind: "upsert", mem: winner, ...prev ? { prev } : {} } : { kind: "delete", prev };
    if (!winner && !prev) return;
    for (const fn of this.listeners) fn(change);
  }
  /** Duplicate-id losers (files that parse but are shadowed by another file with the same id). */
  shadowed() {
    const out2 = [];
    for (const [file, reason] of this.warnOnce) if (reason.startsWith("duplicate id") && memOf(this.files.get(file))) out2.push({ file, reason });
    return out2;
  }
  /** A record whose merge is in progress or was interrupted (it carries `merging`). */
  getMerging(id) {
    return this.mergingById.get(id);
  }
};

// server/src/core/store/reading.ts
var YIELD_EVERY = 128;
var READ_AHEAD_MIN = 2e3;
var StoreReader = class extends StoreViews {
  freshness = () => this.sync();
  ownWrites = null;
  setFreshness(fn, ownWrites) {
    this.freshness = fn;
    this.ownWrites = ownWrites ?? null;
  }
  /**
   * Every operation calls this first, so hand edits are seen without a restart. While adopted
   * records are being checked against the files (validate), an operation waits for the check to
   * finish: it may change the store, and must see it as it is. A `read` (search, list, show,
   * overview) only waits as long as the freshness strategy says (a big store answers from the
   * snapshot meanwhile). A `create` (a new memory: memory_write, a confirmed pending write)
   * does not wait for the check either: it needs the lock and the gates, which see every memory
   * the snapshot holds, and it touches no existing file; a hand edit made before the start is
   * seen when the check reaches it, as for a read.
   */
  ensureFresh(opts) {
    const v = this.validation;
    if (v && !opts) return v.then(() => this.freshness());
    return this.freshness();
  }
  /** The running check of adopted records (validate), which writes wait for. */
  validation = null;
  /** True while adopted records are being checked against the files. */
  get validating() {
    return this.validation !== null;
  }
  /** Resolves once no check of adopted records runs (at once when none does). */
  async validated() {
    while (this.validation) await this.validation.catch(() => void 0);
  }
  setValidation(p) {
    this.validation = p;
    void p.finally(() => {
      if (this.validation === p) this.validation = null;
    });
  }
  // ---- loading and reconciling ------------------------------------------------------------
  /** First read. A seed record whose file still has the same size and mtime is reused unparsed. */
  async load(seed, progress) {
    const seeded = /* @__PURE__ */ new Map();
    if (seed) {
      for (const m of seed) if (this.noteRel(m.file) === null) seeded.set(m.file, m);
    }
    await this.reconcile(await this.listFiles(!this.readOnly), seeded, void 0, progress);
    await this.recoverMerges();
  }
  /**
   * Takes cached records as the view without touching a file (a start that answers from the
   * snapshot at once); validate() then checks them against the files. Call before any listener
   * subscribes: no change is reported for adopted records. Notes are left to validate() (a cached
   * record would not say it is a note). Returns false, adopting nothing, for a cache that names
   * files outside this store (a copied or moved store, another store's cache). `cleanTemps`:
   * remove dead writers' temp files now, as a load does (a small store; a big one leaves them to
   * validate(), whose listing removes them: a second listing of the whole store before the first
   * answer cost ~65 ms at 50k; a peek leaves them).
   */
  adopt(seed, opts = { cleanTemps: false }) {
    const empty = this.filesMap.size === 0 && this.ownersMap.size === 0 && this.unentered === null;
    if (empty) {
      const later2 = opts.uniqueIds === true;
      const placed = later2 ? this.checkPaths(seed) : this.placeOnce(seed);
      if (placed === "foreign") return false;
      if (opts.cleanTemps && !this.readOnly) cleanDeadTemps([this.dir, this.tombDir]);
      if (placed === "once" || Array.isArray(placed)) {
        if (Array.isArray(placed)) this.seed = placed;
        this.unentered = new Backlog(seed.length, (i) => this.enterOne(seed[i], later2));
        this.unenteredRecords = seed;
        return true;
      }
    } else {
      for (const m of seed) if (!this.isMemoryPath(m.file)) return false;
      if (opts.cleanTemps && !this.readOnly) cleanDeadTemps([this.dir, this.tombDir]);
    }
    let claimedTwice = null;
    for (const m of seed) {
      if (this.noteRel(m.file) !== null) continue;
      this.files.set(m.file, m);
      if (!this.owners.has(m.id)) {
        this.owners.set(m.id, m.file);
        this.viewFor(m).set(m.id, m);
      } else {
        this.addOwner(m.id, m.file);
        (claimedTwice ??= /* @__PURE__ */ new Set()).add(m.id);
      }
    }
    if (claimedTwice) for (const id of claimedTwice) this.elect(id);
    return true;
  }
  /** Checks each record's path as placeOnce does, placing nothing: the active ones, or 'foreign'. */
  checkPaths(seed) {
    const active = [];
    for (const m of seed) {
      if (this.isForeign(m.file)) return "foreign";
      if (!m.file.startsWith(this.notesPrefix) && !m.merging && !m.tombstoned) active.push(m);
    }
    return active;
  }
  /** A cached record's path this store would not have written: outside it, or a note's path that is no note. */
  isForeign(p) {
    return p.startsWith(this.notesPrefix) ? this.noteRel(p) === null : !this.isMemoryPath(p);
  }
  /**
   * Places every record in its view, notes aside, checking each path on the way. 'foreign': a
   * path outside the store; 'twice': an id claimed by two records. Both leave the views empty.
   */
  placeOnce(seed) {
    const { activeById, tombById, mergingById } = this;
    let placed = 0;
    let foreign = false;
    for (const m of seed) {
      if (this.isForeign(m.file)) {
        foreign = true;
        break;
      }
      if (m.file.startsWith(this.notesPrefix)) continue;
      this.viewFor(m).set(m.id, m);
      placed++;
    }
    if (!foreign && activeById.size + tombById.size + mergingById.size === placed) return "once";
    activeById.clear();
    tombById.clear();
    mergingById.clear();
    return foreign ? "foreign" : "twice";
  }
  /**
   * Checks the view against the files (after adopt): every file is stat'ed, new and changed ones
   * are read, gone ones dropped, and every change is reported to the listeners. With `pause`,
   * it yields between batches, so a server keeps answering while a big store is checked; a path
   * the watcher refreshed meanwhile is stat'ed again before it is read or dropped. Returns how
   * many files changed.
   */
  async validate(pause3, progress) {
    if (pause3 && this.unentered !== null) {
      await this.makeFilter(pause3);
      if (this.unentered !== null) await this.unentered.drain(pause3, YIELD_EVERY * 16);
    }
    this.enterAdopted();
    const found = await this.listFiles(!this.readOnly, pause3);
    const n = await this.reconcile(found, /* @__PURE__ */ new Map(), pause3, progress);
    await this.recoverMerges();
    return n;
  }
  /** Full reconcile: every file is stat'ed; only changed ones are re-read. */
  async sync() {
    await this.reconcile(await this.listFiles(false), /* @__PURE__ */ new Map());
  }
  /** Reconciles only the given paths (a watcher's report). Paths outside the store are ignored. */
  async refreshPaths(paths) {
    let tombOk;
    for (const p of new Set(paths)) {
      if (!this.isMemoryPath(p)) continue;
      if (dirname4(p) === this.tombDir && !(tombOk ??= await this.tombDirUsable())) continue;
      const st = await fsp5.lstat(p).catch(() => null);
      if (st && st.isFile()) this.refreshOne(p, st.size, st.mtimeMs, void 0);
      else if (this.files.has(p)) this.dropPath(p);
    }
  }
  async listFiles(cleanTemps, pause3) {
    const tombOk = await this.tombDirUsable();
    const dirs = tombOk ? [this.dir, this.tombDir] : [this.dir];
    const ahead = pause3 ? null : this.ahead;
    this.ahead = null;
    const found = await listStoreFiles([...dirs, this.notesDir], cleanTemps, this.onSymlink, dirs.length, pause3, ahead ?? void 0);
    this.addNotes(found, dirs.length, cleanTemps);
    return found;
  }
  ahead = null;
  /**
   * Starts listing the store's big directories in a worker thread (listing.ts, listAhead) for the
   * next check without pauses to take: a command calls it before it decodes the cache, so the
   * two overlap. A small store is listed as usual, when checked.
   */
  listAhead() {
    const m = /* @__PURE__ */ new Map();
    for (const d of [this.dir, this.tombDir]) {
      const pre = listAhead(d);
      if (pre) m.set(d, pre);
    }
    this.ahead = m.size > 0 ? m : null;
  }
  onSymlink = (p) => {
    this.setEntry(p, new Skip(0, 0, "is a symbolic link; cairn does not follow links"));
  };
  addNotes(found, di, cleanTemps) {
    listNoteFiles(this.notesDir, (rel, size2, mtimeMs) => found.add(di, rel, size2, mtimeMs), this.onSymlink, cleanTemps);
  }
  /** Reconciles the notes area only (a change in it the watcher could not name, e.g. a folder moved). */
  async syncNotes() {
    const found = new Listing([this.notesDir]);
    this.addNotes(found, 0, false);
    for (const p of [...this.notePaths]) if (!found.has(p)) this.dropPath(p);
    for (let i = 0; i < found.length; i++) this.refreshOne(found.path(i), found.size(i), found.mtimeMs(i), void 0);
  }
  /**
   * .tombstones/ must be a real directory: were it a symlink, loads would read memories from
   * wherever it points and removals would write there, outside the store. Absent is fine
   * (created on the first removal).
   */
  async tombDirUsable() {
    const st = await fsp5.lstat(this.tombDir).catch(() => null);
    if (!st || st.isDirectory()) return true;
    const reason = st.isSymbolicLink() ? "is a symbolic link; cairn does not follow links out of the store" : "is not a directory";
    if (this.warnOnce.get(this.tombDir) !== reason) {
      this.warnOnce.set(this.tombDir, reason);
      this.warn(`skipped ${this.tombDir}: ${reason}`);
    }
    return false;
  }
  async reconcile(found, seeded, pause3, progress) {
    const changed = [];
    let present = 0;
    for (let i = 0; i < found.length; i++) {
      if (pause3 && i % YIELD_EVERY === YIELD_EVERY - 1) await pause3();
      const cur = this.files.get(found.path(i));
      if (cur) present++;
      if (!cur || cur.size !== found.size(i) || cur.mtimeMs !== found.mtimeMs(i)) changed.push(i);
    }
    let dropped = 0;
    if (present < this.files.size) {
      if (pause3) await found.index(pause3, YIELD_EVERY);
      let k = 0;
      for (const p of [...this.files.keys()]) {
        if (pause3 && ++k % YIELD_EVERY === 0) await pause3();
        if (found.has(p) || errorOf(this.files.get(p))?.startsWith("is a symbolic")) continue;
        if (pause3 && this.isMemoryPath(p) && (await fsp5.lstat(p).catch(() => null))?.isFile()) continue;
        this.dropPath(p);
        dropped++;
      }
    }
    const reusable = (p, size2, mtimeMs) => {
      const s2 = seeded.get(p);
      return s2 && s2.size === size2 && s2.mtimeMs === mtimeMs ? s2 : void 0;
    };
    let texts = null;
    if (!pause3 && changed.length >= READ_AHEAD_MIN) {
      const paths = [];
      for (const i of changed) {
        const p = found.path(i);
        if (found.size(i) <= MAX_FILE_BYTES && !reusable(p, found.size(i), found.mtimeMs(i))) paths.push(p);
      }
      texts = readAhead(paths);
    }
    try {
      let n = 0;
      let read = 0;
      progress?.(0, changed.length);
      for (const i of changed) {
        if (progress && ++read % 1e3 === 0) progress(read, changed.length);
        const p = found.path(i);
        let size2 = found.size(i);
        let mtimeMs = found.mtimeMs(i);
        if (pause3) {
          if (++n % 100 === 0) await pause3();
          const st = await fsp5.lstat(p).catch(() => null);
          if (!st?.isFile()) continue;
          size2 = st.size;
          mtimeMs = st.mtimeMs;
        }
        const s2 = reusable(p, size2, mtimeMs);
        if (s2) this.refreshOne(s2.file, size2, mtimeMs, s2);
        else this.refreshOne(p, size2, mtimeMs, void 0, texts && size2 <= MAX_FILE_BYTES ? await nextText(texts) : void 0);
      }
    } finally {
      await texts?.return(void 0);
    }
    progress?.(changed.length, changed.length);
    return changed.length + dropped;
  }
  /** `read`: the file's text (or why it could not be read) when it was read ahead. */
  refreshOne(p, size2, mtimeMs, seeded, read) {
    const cur = this.entryAt(p);
    if (cur && cur.size === size2 && cur.mtimeMs === mtimeMs && !seeded) return;
    let entry;
    if (seeded) {
      entry = seeded;
    } else if (size2 > MAX_FILE_BYTES) {
      entry = new Skip(size2, mtimeMs, `is ${size2} bytes, over the ${MAX_FILE_BYTES}-byte limit for a memory file`);
    } else {
      const text2 = read ?? readOne(p);
      if (isReadFailure(text2)) {
        if (text2.code === "ENOENT") {
          if (this.files.has(p)) this.dropPath(p);
          return;
        }
        entry = new Skip(size2, mtimeMs, `cannot be read: ${text2.message}`);
        this.setEntry(p, entry);
        return;
      }
      entry = fileEntry(p, text2, size2, mtimeMs, this.noteRel(p));
    }
    this.setEntry(p, entry);
  }
};
async function nextText(texts) {
  const r = await texts.next();
  if (r.done) throw new Error("the read-ahead ended before its last file");
  return r.value;
}

// server/src/core/store/writing.ts
var StoreWriter = class extends StoreReader {
  lock = new StoreLock(this.dir);
  /**
   * Runs a write under the lock, telling the freshness strategy it was ours. It does not wait for
   * a running check of adopted records (validate): that check re-stats every path before it reads
   * or drops it, so a file a write made or moved meanwhile is never taken for a stale one (the
   * same rule as for a file the watcher reported), and a write re-reads its target under the lock.
   */
  async locked(fn) {
    const o = this.ownWrites;
    const clean = o?.beforeWrite() ?? false;
    try {
      return await this.lock.run(fn);
    } finally {
      o?.afterWrite(clean);
    }
  }
  /** Re-reads one record's file under the lock so a change by another process is never lost. */
  async fresh(id) {
    const known = this.activeById.get(id) ?? this.tombById.get(id);
    if (known) {
      const st = await fsp6.lstat(known.file).catch(() => null);
      if (st?.isFile()) {
        this.refreshOne(known.file, st.size, st.mtimeMs, void 0);
        const again = this.activeById.get(id) ?? this.tombById.get(id);
        if (again && again.file === known.file) return again;
      }
    }
    await this.sync();
    return this.activeById.get(id) ?? this.tombById.get(id);
  }
  /** The record with this id in any view (active, tombstone, merging), re-read under the lock. */
  async freshAny(id) {
    const known = this.mergingById.get(id);
    if (known) {
      const st = await fsp6.lstat(known.file).catch(() => null);
      if (st?.isFile()) this.refreshOne(known.file, st.size, st.mtimeMs, void 0);
      else await this.sync();
      const again = this.mergingById.get(id);
      if (again) return again;
    }
    return this.fresh(id);
  }
  /** Tombstones (tomb) or restores (no tomb) one record: rewrite in place, then move (as modify). */
  async moveRecord(cur, next2) {
    const targetDir = next2.removed !== void 0 ? this.tombDir : this.dir;
    const written = await this.writeRecord(cur.file, next2, cur.extra);
    if (dirname5(cur.file) === targetDir) return written;
    await ensureDir(targetDir);
    const dest = await this.freeName(targetDir, basename3(cur.file));
    await moveFileDurable(cur.file, dest);
    this.files.delete(cur.file);
    this.removeOwner(cur.id, cur.file);
    const moved = storedMemory(written, dest, written.size, written.mtimeMs, written.extra);
    this.setEntry(dest, moved);
    return moved;
  }
  /** `created`: a new file (create()), which a big store just started enters without its adopted records (enterCreated). */
  async writeRecord(file, rec, extra, created = false) {
    const text2 = serializeMemory(rec, extra);
    await writeFileAtomic(file, text2);
    const st = statSync3(file);
    const mem2 = storedMemory(rec, file, st.size, st.mtimeMs, extra);
    if (!(created && this.enterCreated(file, mem2))) this.setEntry(file, mem2);
    return mem2;
  }
  async freeName(dir, name) {
    let candidate = join10(dir, name);
    for (let n = 2; this.isKnownPath(candidate) || lstatSync6(candidate, { throwIfNoEntry: false }); n++) {
      candidate = join10(dir, name.replace(/\.md$/, `-${n}.md`));
    }
    return candidate;
  }
  /** Writes a new record (a tombstone goes straight into .tombstones/); `extra` as in the file format. */
  async create(rec, extra = []) {
    return this.locked(async () => {
      const dir = rec.removed !== void 0 ? this.tombDir : this.dir;
      await ensureDir(this.dir);
      await ensureDir(dir);
      const file = await this.freeName(dir, fileNameFor(rec, this.nameText));
      return this.writeRecord(file, rec, extra, true);
    });
  }
  /**
   * Read-modify-write of one record under the lock. `mutate` sees the record as it is on disk
   * now and returns the new record (or throws to abort: nothing is written).
   */
  async modify(id, mutate) {
    return this.locked(async () => {
      const cur = await this.fresh(id);
      if (!cur) throw new NotFoundError(`no memory with id ${id}`);
      if (cur.note !== void 0) throw new ConflictError(`${id} is the note ${cur.note}: change it with the memory tool`);
      const next2 = await mutate(cur);
      if (next2.id !== cur.id) throw new ConflictError(`a write-back may not change the id of ${cur.id}`);
      const wantTomb = next2.removed !== void 0;
      const targetDir = wantTomb ? this.tombDir : this.dir;
      if (targetDir === this.tombDir && dirname5(cur.file) !== targetDir && !await this.tombDirUsable()) {
        throw new ConflictError(`cannot remove ${id}: ${this.tombDir} is not a real directory (a symbolic link or a file); cairn does not follow links out of the store, so replace it with a directory`);
      }
      const written = await this.writeRecord(cur.file, next2, cur.extra);
      if (dirname5(cur.file) === targetDir) return written;
      await ensureDir(targetDir);
      const dest = await this.freeName(targetDir, basename3(cur.file));
      await moveFileDurable(cur.file, dest);
      this.files.delete(cur.file);
      this.removeOwner(id, cur.file);
      const moved = storedMemory(written, dest, written.size, written.mtimeMs, written.extra);
      this.setEntry(dest, moved);
      return moved;
    });
  }
  // ---- notes (the memory tool's files; paths are checked to lie in the notes area by core/notes) ----
  /** The note at `file` as on disk now (under the lock): its text, or null when there is none. */
  async noteText(file) {
    const st = await fsp6.lstat(file).catch(() => null);
    if (!st) return null;
    if (!st.isFile()) throw new ConflictError(`${file} is not a regular file`);
    const text2 = await fsp6.readFile(file, "utf8");
    this.refreshOne(file, st.size, st.mtimeMs, void 0);
    return text2;
  }
  async noteWritten(file) {
    const st = await fsp6.stat(file);
    this.refreshOne(file, st.size, st.mtimeMs, void 0);
    const m = memOf(this.files.get(file));
    if (!m) throw new ConflictError(`${file} was written but cannot be read back as a note`);
    return m;
  }
  /**
   * Read-modify-write of one note under the lock: `edit` sees the text on disk now (null: no such
   * file) and returns the new text, or throws to abort (nothing is written). Atomic like every write.
   */
  async editNote(file, edit) {
    if (this.noteRel(file) === null) throw new ConflictError(`${file} is not in the notes area`);
    return this.locked(async () => {
      const next2 = await edit(await this.noteText(file));
      await ensureDir(dirname5(file));
      await writeFileAtomic(file, next2);
      return this.noteWritten(file);
    });
  }
  /**
   * Moves the notes at `files` to .tombstones/: for each, a tombstone record (built by `tomb` from
   * the note as on disk now, carrying its path and exact text) is written first, then the note is
   * unlinked, so a crash in between leaves both, never neither. Returns the tombstones.
   */
  async removeNotes(files, tomb) {
    return this.locked(async () => {
      if (!await this.tombDirUsable()) throw new ConflictError(`cannot delete: ${this.tombDir} is not a real directory (a symbolic link or a file); cairn does not follow links out of the store, so replace it with a directory`);
      const out2 = [];
      for (const file of files) {
        const text2 = await this.noteText(file);
        const note = memOf(this.files.get(file));
        if (text2 === null || !note || note.note === void 0) continue;
        await ensureDir(this.tombDir);
        const dest = await this.freeName(this.tombDir, `${basename3(file).replace(/[^A-Za-z0-9._-]+/g, "-").replace(/\.md$/, "")}-note.md`);
        out2.push(await this.writeRecord(dest, tomb(note), noteTombExtra(note.note, text2)));
        await fsp6.unlink(file);
        await fsyncDir(dirname5(file));
        this.dropPath(file);
      }
      return out2;
    });
  }
  /**
   * Renames a note file or a folder of notes; never overwrites: a file is linked to its new name
   * (fails if the name exists) and then unlinked; a folder is renamed after a check under the lock.
   */
  async renameNote(from, to) {
    if (this.noteRel(to) === null) throw new ConflictError(`${to} is not in the notes area`);
    await this.locked(async () => {
      const st = await fsp6.lstat(from);
      await ensureDir(dirname5(to));
      if (st.isFile()) {
        await fsp6.link(from, to);
        await fsp6.unlink(from);
      } else {
        if (await fsp6.lstat(to).catch(() => null)) throw Object.assign(new Error(`${to} exists`), { code: "EEXIST" });
        await fsp6.rename(from, to);
      }
      await fsyncDir(dirname5(to));
      if (dirname5(from) !== dirname5(to)) await fsyncDir(dirname5(from));
      await this.syncNotes();
    });
  }
  /** Puts a deleted note back (its tombstone `id`) at `file`, which must be free; drops the tombstone. */
  async restoreNote(id, file, text2) {
    if (this.noteRel(file) === null) throw new ConflictError(`${file} is not in the notes area`);
    return this.locked(async () => {
      const t = await this.fresh(id);
      if (!t || !t.tombstoned) throw new NotFoundError(`no removed memory with id ${id}`);
      if (await fsp6.lstat(file).catch(() => null)) throw new ConflictError(`cannot restore ${id}: its path now holds another file; rename that one first`);
      await ensureDir(dirname5(file));
      await writeFileAtomic(file, text2);
      const note = await this.noteWritten(file);
      await fsp6.rm(t.file, { force: true });
      this.dropPath(t.file);
      return note;
    });
  }
  /** Permanently deletes tombstone files (the only hard delete). */
  async purgeTombstones(ids2) {
    return this.locked(async () => {
      const done = [];
      for (const id of ids2) {
        const t = await this.fresh(id);
        if (!t || !t.tombstoned) continue;
        await fsp6.rm(t.file, { force: true });
        this.dropPath(t.file);
        done.push(id);
      }
      return done;
    });
  }
};

// server/src/core/store/store.ts
function stripRecord(m) {
  const { file, tombstoned, size: size2, mtimeMs, extra, idAssigned, note, ...rec } = m;
  void file, void tombstoned, void size2, void mtimeMs, void extra, void idAssigned, void note;
  return rec;
}
var Store = class extends StoreWriter {
  // ---- merging (memory_merge) ----------------------------------------------------------------
  //
  // Several files must change as one: the merged memory appears and its sources become
  // tombstones. No single rename does that, so the merge is a small protocol whose every
  // intermediate state on disk is resolved one way, deterministically (docs/format.md, "Merging"):
  //
  //   0. a journal .merges/<new id>.json {id, file, sources} is written (atomic): the next open
  //      finds an interrupted merge without reading every file;
  //   1. the merged file is written with `merging: [source ids]`: a record carrying `merging`
  //      is in no view (not active, not a tombstone), so readers still see the old set;
  //   2. each source is tombstoned (rewrite + rename, as remove) with removed_reason
  //      `merged into <new id>`;
  //   3. the merged file is rewritten without `merging`: it is now active;
  //   4. the journal is deleted.
  //
  // Recovery (recoverMerges: at every load and validate of a writable store, and before every
  // merge, always under the lock; never by a read-only inspection such as doctor) takes each
  // journal and each record carrying `merging`: if every source is a tombstone whose reason is
  // `merged into <its id>`, the merge is rolled forward (step 3, 4); otherwise it is rolled back:
  // the sources this merge tombstoned are restored and the merged file is deleted (it was never
  // visible, so nothing anyone saw is lost). Both directions are idempotent: a crash during
  // recovery is recovered the same way by the next open. A crash before step 3 therefore leaves
  // the old set, from step 3 on the merged result; never both active, never neither.
  /** Where merge journals live (a dot directory: never listed as memories). */
  get mergeDir() {
    return join11(this.dir, ".merges");
  }
  /** Test hook: CAIRN_TEST_MERGE_STEP_DELAY_MS waits between the steps of a merge (crash tests). */
  async stepDelay() {
    const ms = Number(process.env.CAIRN_TEST_MERGE_STEP_DELAY_MS ?? 0);
    if (ms > 0) await new Promise((r) => setTimeout(r, ms));
  }
  /**
   * memory_merge's one locked step. `check` sees each source as it is on disk now and throws to
   * refuse (nothing is written); `tomb` builds a source's tombstone. Returns the merged memory.
   */
  async merge(rec, sourceIds, check, tomb) {
    if (this.readOnly) throw new ConflictError("this store was opened read-only");
    return this.locked(async () => {
      await this.recoverLocked();
      const sources = [];
      for (const id of sourceIds) {
        const cur = await this.fresh(id);
        if (!cur) throw new NotFoundError(`no memory with id ${id}`);
        check(cur);
        sources.push(cur);
      }
      if (!await this.tombDirUsable()) throw new ConflictError(`cannot merge: ${this.tombDir} is not a real directory (a symbolic link or a file); cairn does not follow links out of the store, so replace it with a directory`);
      await ensureDir(this.dir);
      await ensureDir(this.tombDir);
      await ensureDir(this.mergeDir);
      const file = await this.freeName(this.dir, fileNameFor(rec, this.nameText));
      const journal = join11(this.mergeDir, `${rec.id}.json`);
      await writeFileAtomic(journal, `${JSON.stringify({ id: rec.id, file: basename4(file), sources: sourceIds })}
`);
      await this.stepDelay();
      await this.writeRecord(file, { ...rec, merging: [...sourceIds] }, []);
      for (const src of sources) {
        await this.stepDelay();
        await this.moveRecord(src, tomb(src));
      }
      await this.stepDelay();
      const done = { ...rec };
      delete done.merging;
      const merged = await this.writeRecord(file, done, []);
      await fsp7.rm(journal, { force: true });
      await fsyncDir(this.mergeDir);
      return merged;
    });
  }
  /** Resolves interrupted merges (see above) under the lock. A read-only store never does. */
  async recoverMerges() {
    if (this.readOnly) return 0;
    const pending = this.mergingById.size > 0 || (await fsp7.readdir(this.mergeDir).catch(() => [])).length > 0;
    if (!pending) return 0;
    return this.locked(() => this.recoverLocked());
  }
  async recoverLocked() {
    if (this.readOnly) return 0;
    const work = /* @__PURE__ */ new Map();
    const names = await fsp7.readdir(this.mergeDir).catch(() => []);
    for (const name of names) {
      const p = join11(this.mergeDir, name);
      if (isTempName(name)) {
        removeIfDeadTemp(this.mergeDir, name);
        continue;
      }
      if (!name.endsWith(".json")) continue;
      let j;
      try {
        j = JSON.parse(await fsp7.readFile(p, "utf8"));
      } catch {
        j = {};
      }
      const ok = typeof j.id === "string" && Array.isArray(j.sources) && j.sources.every((x) => typeof x === "string");
      if (!ok) {
        this.warn(`removed ${p}: not a merge journal cairn can read`);
        await fsp7.rm(p, { force: true });
        continue;
      }
      work.set(j.id, { sources: j.sources, journal: p, ...typeof j.file === "string" ? { file: join11(this.dir, basename4(j.file)) } : {} });
    }
    for (const [id, m] of this.mergingById) {
      const w2 = work.get(id);
      if (w2) w2.file = m.file;
      else work.set(id, { sources: m.merging ?? [], file: m.file });
    }
    let n = 0;
    for (const [id, w2] of work) {
      await this.resolveMerge(id, w2.sources, w2.file);
      if (w2.journal) await fsp7.rm(w2.journal, { force: true });
      n++;
    }
    if (names.length > 0) await fsyncDir(this.mergeDir).catch(() => void 0);
    return n;
  }
  async resolveMerge(id, sourceIds, file) {
    if (file) {
      const st = await fsp7.lstat(file).catch(() => null);
      if (st?.isFile()) this.refreshOne(file, st.size, st.mtimeMs, void 0);
      else if (this.files.has(file)) this.dropPath(file);
    }
    const merged = this.mergingById.get(id) ?? await this.freshAny(id);
    const reason = `merged into ${id}`;
    const srcs = [];
    for (const s2 of sourceIds) srcs.push(await this.fresh(s2));
    const ours = (s2) => s2 !== void 0 && s2.tombstoned && s2.removed_reason === reason;
    if (merged && !merged.merging) return;
    if (merged && srcs.every(ours)) {
      if (merged.merging) {
        const done = stripRecord(merged);
        delete done.merging;
        await this.writeRecord(merged.file, done, merged.extra);
        this.warn(`finished the interrupted merge into ${id}`);
      }
      return;
    }
    for (const s2 of srcs) {
      if (!ours(s2)) continue;
      const rec = stripRecord(s2);
      delete rec.removed;
      delete rec.removed_reason;
      delete rec.removed_session;
      await this.moveRecord(s2, rec);
    }
    if (merged?.merging) {
      await fsp7.rm(merged.file, { force: true });
      await fsyncDir(dirname6(merged.file));
      this.dropPath(merged.file);
      this.warn(`rolled back the interrupted merge into ${id}: its sources are active again`);
    }
  }
};

// server/src/core/trust/gates/entropy.ts
function shannonEntropy(s2) {
  if (s2.length === 0) return 0;
  const counts = /* @__PURE__ */ new Map();
  for (const ch of s2) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  const n = [...s2].length;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}
function charClasses(s2) {
  return Number(/[a-z]/.test(s2)) + Number(/[A-Z]/.test(s2)) + Number(/[0-9]/.test(s2)) + Number(/[^A-Za-z0-9]/.test(s2));
}
var PLACEHOLDER_WORDS = /(example|placeholder|changeme|change[_-]me|redacted|dummy|your[_-]?|xxxx|sample|fake|todo|insert|replace)/i;
function isPlaceholder(value) {
  const v = value.trim();
  if (v === "") return true;
  if (/^[<[{($%]/.test(v)) return true;
  if (/^[*x\u2022.#_-]+$/i.test(v)) return true;
  if (PLACEHOLDER_WORDS.test(v)) return true;
  if (/^(password|passwd|secret|token|none|null|nil|undefined|true|false|empty|unset|required|optional|string)$/i.test(v)) {
    return true;
  }
  return false;
}
function mask(secret, keep = 4) {
  const shown2 = Math.max(0, Math.min(keep, Math.floor(secret.length / 3)));
  return `${secret.slice(0, shown2)}********`;
}

// server/src/core/trust/gates/secrets.ts
var ASSIGNMENT_MIN_ENTROPY = 3;
var ASSIGNMENT_MIN_LENGTH = 8;
var notExample = (t) => !/EXAMPLE/i.test(t);
var randomTail = (prefix) => (t) => {
  const tail = t.replace(prefix, "");
  return /[0-9]/.test(tail) && /[A-Za-z]/.test(tail) && shannonEntropy(tail) >= 3.2 && notExample(t);
};
var TOKEN_RULES = [
  { kind: "gcp-api-key", re: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g, keep: 6, accept: notExample },
  { kind: "aws-access-key-id", re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, keep: 6, accept: notExample },
  { kind: "github-token", re: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])/g, keep: 6, accept: randomTail(/^gh._/) },
  { kind: "github-token", re: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,}(?![A-Za-z0-9_])/g, keep: 13, accept: randomTail(/^github_pat_/) },
  {
    kind: "gitlab-token",
    re: /(?<![A-Za-z0-9_-])gl(?:pat|dt|rt|ptt|cbt|ft|imt|oas|soat)-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g,
    keep: 8,
    accept: randomTail(/^gl[a-z]+-/)
  },
  { kind: "slack-token", re: /(?<![A-Za-z0-9_-])(?:xox[bpars]|xapp)-[A-Za-z0-9-]{10,}(?![A-Za-z0-9_-])/g, keep: 7, accept: (t) => /[0-9]/.test(t) && notExample(t) },
  {
    kind: "slack-webhook",
    re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]{8,}/g,
    keep: 33,
    accept: (t) => !/X{6,}|EXAMPLE/i.test(t)
  },
  { kind: "stripe-key", re: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}(?![A-Za-z0-9_])/g, keep: 10, accept: randomTail(/^[a-z]{2}_[a-z]+_/) },
  { kind: "stripe-key", re: /(?<![A-Za-z0-9_])whsec_[A-Za-z0-9]{24,}(?![A-Za-z0-9_])/g, keep: 8, accept: randomTail(/^whsec_/) },
  { kind: "anthropic-key", re: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{24,}(?![A-Za-z0-9_-])/g, keep: 14, accept: randomTail(/^sk-ant-(?:[a-z]+\d*-)?/) },
  {
    kind: "openai-key",
    re: /(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g,
    keep: (t) => (/^sk-[a-zA-Z]+-/.exec(t)?.[0].length ?? 3) + 2,
    accept: randomTail(/^sk-(?:proj-|svcacct-|admin-|None-)?/)
  },
  { kind: "gcp-oauth-secret", re: /(?<![A-Za-z0-9_-])GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g, keep: 9, accept: randomTail(/^GOCSPX-/) },
  { kind: "gcp-access-token", re: /(?<![A-Za-z0-9_.-])ya29\.[A-Za-z0-9_-]{30,}(?![A-Za-z0-9_-])/g, keep: 7, accept: randomTail(/^ya29\./) },
  { kind: "npm-token", re: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g, keep: 6, accept: randomTail(/^npm_/) },
  { kind: "docker-hub-token", re: /(?<![A-Za-z0-9_])dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g, keep: 11, accept: randomTail(/^dckr_[a-z]+_/) },
  // A PyPI token is a base64url macaroon whose first bytes always encode to "AgE".
  { kind: "pypi-token", re: /(?<![A-Za-z0-9_-])pypi-AgE[A-Za-z0-9_-]{50,}(?![A-Za-z0-9_-])/g, keep: 9 },
  // Hugging Face tokens are letters only: demand a random-looking mix of cases, which a
  // snake_case identifier starting with hf_ (`hf_hub_download`) never has.
  {
    kind: "huggingface-token",
    re: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,40}(?![A-Za-z0-9_])/g,
    keep: 5,
    accept: (t) => {
      const tail = t.slice(3);
      return (tail.match(/[A-Z]/g)?.length ?? 0) >= 4 && (tail.match(/[a-z]/g)?.length ?? 0) >= 4 && shannonEntropy(tail) >= 3.5 && notExample(t);
    }
  },
  { kind: "sendgrid-key", re: /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, keep: 5, accept: randomTail(/^SG\./) },
  // Twilio account and API-key SIDs: AC / SK and exactly 32 lowercase hex digits.
  { kind: "twilio-key", re: /(?<![A-Za-z0-9_])(?:AC|SK)[0-9a-f]{32}(?![A-Za-z0-9_])/g, keep: 4, accept: (t) => /[0-9]/.test(t.slice(2)) && /[a-f]/.test(t.slice(2)) },
  // header.payload.signature, header and payload both base64url of `{"`.
  { kind: "jwt", re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?![A-Za-z0-9_-])/g, keep: 8 }
];
var Findings = class {
  list = [];
  spans = [];
  seen = /* @__PURE__ */ new Set();
  overlaps(start, end) {
    return this.spans.some((s2) => start < s2.end && end > s2.start);
  }
  spanList() {
    return [...this.spans].sort((a, b) => a.start - b.start);
  }
  add(kind, snippet, start, end) {
    this.spans.push({ start, end });
    const key = `${kind}\0${snippet}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ kind, snippet });
  }
};
function detectPrivateKeys(text2, out2) {
  const re = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/g;
  for (const m of text2.matchAll(re)) {
    const start = m.index;
    const after = text2.slice(start + m[0].length, start + m[0].length + 4e3);
    const endAt = after.search(/-----END [A-Z0-9 ]*PRIVATE KEY/);
    const material = (endAt >= 0 ? after.slice(0, endAt) : after.slice(0, 600)).replace(/\\n/g, "\n").replace(/^[A-Za-z-]+: .*$/gm, "");
    const runs = material.split(/\s+/).filter((r) => /^[A-Za-z0-9+/=]{32,}$/.test(r) && /[0-9+/]/.test(r));
    if (runs.length === 0) continue;
    const end = start + m[0].length + (endAt >= 0 ? endAt : Math.min(after.length, 600));
    if (out2.overlaps(start, end)) continue;
    out2.add("private-key", `${m[0]} ********`, start, end);
  }
}
function detectGcpServiceAccount(text2, out2) {
  if (!/"type"\s*:\s*"service_account"/.test(text2)) return;
  const re = /"(private_key_id|private_key)"\s*:\s*"([^"]{8,})"/g;
  for (const m of text2.matchAll(re)) {
    const value = m[2];
    if (isPlaceholder(value)) continue;
    const valueStart = m.index + m[0].length - value.length - 1;
    out2.add("gcp-service-account", `"type": "service_account", "${m[1]}": "${mask(value, m[1] === "private_key" ? 0 : 2)}"`, valueStart, valueStart + value.length);
  }
}
function detectTokens(text2, out2) {
  for (const rule of TOKEN_RULES) {
    for (const m of text2.matchAll(rule.re)) {
      const token = m[0];
      if (rule.accept && !rule.accept(token)) continue;
      if (out2.overlaps(m.index, m.index + token.length)) continue;
      const keep = typeof rule.keep === "number" ? rule.keep : rule.keep(token);
      out2.add(rule.kind, mask(token, keep), m.index, m.index + token.length);
    }
  }
}
function detectAwsSecretKeys(text2, out2) {
  const re = /aws_?secret_?(?:access_?)?key["']?\s*(?:=|:=|=>|:)\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi;
  for (const m of text2.matchAll(re)) {
    const value = m[1];
    if (!notExample(value) || isPlaceholder(value)) continue;
    const start = m.index + m[0].length - value.length;
    if (out2.overlaps(start, start + value.length)) continue;
    out2.add("aws-secret-access-key", `${m[0].slice(0, m[0].length - value.length)}${mask(value, 2)}`, start, start + value.length);
  }
}
function detectUrlPasswords(text2, out2) {
  const re = /\b([a-z][a-z0-9+.-]{1,20}):\/\/([^\s:/?#@'"`<>]*):([^\s/?#@'"`<>]+)@([^\s/?#'"`<>]+)/gi;
  for (const m of text2.matchAll(re)) {
    const [, scheme, user, pass, host] = m;
    if (isPlaceholder(pass) || /^(pass|pw|pwd)$/i.test(pass)) continue;
    const start = m.index + scheme.length + 3 + user.length + 1;
    if (out2.overlaps(start, start + pass.length)) continue;
    out2.add("url-password", `${scheme}://${user}:${mask(pass, 2)}@${host}`, start, start + pass.length);
  }
}
function detectBearer(text2, out2) {
  for (const m of text2.matchAll(/\bBearer\s+([A-Za-z0-9._~+/-]{20,}=*)/g)) {
    const value = m[1];
    const start = m.index + m[0].length - value.length;
    if (out2.overlaps(start, start + value.length)) continue;
    if (!looksLikeSecretValue(value)) continue;
    out2.add("bearer-token", `Bearer ${mask(value, 4)}`, start, start + value.length);
  }
}
function isCodeReference(v) {
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:[[(].*)?$/.test(v) || // process.env.X, os.environ[...]
  /^[A-Za-z_$][\w$.]*\(/.test(v) || // getToken(...)
  /^[A-Z][A-Z0-9_]*$/.test(v);
}
function isNameLike(v) {
  const segs = v.split(/[-_.]+/).filter((s2) => s2 !== "");
  return segs.length >= 2 && segs.every((s2) => /^[A-Za-z]+$/.test(s2) || /^v?\d{1,4}$/i.test(s2));
}
function looksLikeSecretValue(v) {
  if (v.length < ASSIGNMENT_MIN_LENGTH) return false;
  if (isPlaceholder(v) || isCodeReference(v)) return false;
  if (/^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(v) || v.includes("://")) return false;
  if (!/[0-9]/.test(v) && !/[^A-Za-z0-9_.-]/.test(v)) return false;
  if (isNameLike(v)) return false;
  if (charClasses(v) < 2) return false;
  return shannonEntropy(v) >= ASSIGNMENT_MIN_ENTROPY;
}
var ASSIGNMENT_RE = /(?:(?<![0-9])(?:password|passwd|passphrase)|(?<![A-Za-z0-9])(?:pwd|secret[_-]?key|secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key|token))["']?\s*(=|:=|=>|:)\s*(["'`]?)([^\s"'`,;)\]}]+)\2/gi;
var KEY_CHAR = /[A-Za-z0-9_.-]/;
function detectAssignments(text2, out2) {
  for (const m of text2.matchAll(ASSIGNMENT_RE)) {
    const value = m[3];
    const start = m.index + m[0].length - value.length - m[2].length;
    if (out2.overlaps(start, start + value.length)) continue;
    if (!looksLikeSecretValue(value)) continue;
    let keyStart = m.index;
    while (keyStart > 0 && m.index - keyStart < 100 && KEY_CHAR.test(text2[keyStart - 1])) keyStart--;
    const key = (text2.slice(keyStart, m.index) + /^[A-Za-z_-]+/.exec(m[0])[0]).replace(/^[-_.]+/, "");
    out2.add("secret-assignment", `${key}${m[1] === ":" ? ": " : m[1]}${mask(value, 2)}`, start, start + value.length);
  }
}
function detectAzure(text2, out2) {
  for (const m of text2.matchAll(/\b(AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{30,}={0,2})(?![A-Za-z0-9+/=])/g)) {
    const value = m[2];
    if (isPlaceholder(value) || !notExample(value) || shannonEntropy(value) < 4) continue;
    const start = m.index + m[1].length + 1;
    if (out2.overlaps(start, start + value.length)) continue;
    out2.add("azure-storage-key", `${m[1]}=${mask(value, 2)}`, start, start + value.length);
  }
  for (const m of text2.matchAll(/(?<=[?&;\s]|^)sig=([A-Za-z0-9%+/=_-]{20,})/g)) {
    const value = m[1];
    const lineStart = text2.lastIndexOf("\n", m.index) + 1;
    const lineEnd = text2.indexOf("\n", m.index);
    const line = text2.slice(lineStart, lineEnd === -1 ? text2.length : lineEnd);
    if (!/(?:^|[?&;\s])(?:sv|se|sp|ss|srt|spr|st|sr)=/.test(line)) continue;
    if (isPlaceholder(value) || shannonEntropy(value) < 3.5) continue;
    const start = m.index + 4;
    if (out2.overlaps(start, start + value.length)) continue;
    out2.add("azure-sas-token", `sig=${mask(value, 2)}`, start, start + value.length);
  }
}
function detectTwilioAuthTokens(text2, out2) {
  const re = /\b(?:twilio[\w ]{0,30}?)?auth[_ -]?token\b["']?\s*(?:[:=]|\bis\b)?\s*["']?([0-9a-f]{32})(?![0-9A-Za-z])/gi;
  for (const m of text2.matchAll(re)) {
    const value = m[1];
    if (!/[0-9]/.test(value) || !/[a-f]/i.test(value)) continue;
    const start = m.index + m[0].length - value.length;
    if (out2.overlaps(start, start + value.length)) continue;
    out2.add("twilio-key", `auth token ${mask(value, 2)}`, start, start + value.length);
  }
}
var VAULT_WORDS = /1password|keychain|keyring|vault|bitwarden|lastpass|keepass|dashlane|secrets?[-_ ]?manager/i;
function looksLikeStatedPassword(v, minLength) {
  if (v.length < minLength || v.length > 200) return false;
  if (isPlaceholder(v) || isCodeReference(v) || VAULT_WORDS.test(v)) return false;
  if (/^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(v) || v.includes("://") || v.startsWith("-")) return false;
  if (/^[a-z]+$/.test(v)) return false;
  if (!/[0-9]/.test(v) && !/[^A-Za-z0-9]/.test(v)) return /[A-Z]/.test(v) && /[a-z]/.test(v) && !/^[A-Z][a-z]+$/.test(v);
  return charClasses(v) >= 2;
}
var MYSQL_CLIENTS = /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mysqlsh|mysqlslap|mariadb|mariadb-dump|mariadb-admin)\b/;
function detectPasswordFlags(text2, out2) {
  for (const line of linesOf(text2)) {
    if (!MYSQL_CLIENTS.test(line.text)) continue;
    for (const m of line.text.matchAll(/(?<=\s)-p(["']?)([^\s"'`]+)\1/g)) {
      const value = m[2];
      if (!looksLikeStatedPassword(value, 3) && !(/^[a-z]{3,}$/.test(value) && !isPlaceholder(value))) continue;
      const start = line.start + m.index + 2 + m[1].length;
      if (out2.overlaps(start, start + value.length)) continue;
      out2.add("password-flag", `-p${mask(value, 2)}`, start, start + value.length);
    }
  }
  const re = /(?<![\w-])--(?:[a-z]+-)?(?:password|passwd|pass)(?:=|[ \t]+)(["']?)([^\s"'`]+)\1/gi;
  for (const m of text2.matchAll(re)) {
    const value = m[2].replace(/[.,;:!?)\]]+$/, "");
    if (!looksLikeStatedPassword(value, 4)) continue;
    const start = m.index + m[0].length - m[2].length - m[1].length;
    if (out2.overlaps(start, start + value.length)) continue;
    out2.add("password-flag", `${m[0].slice(0, m[0].length - m[2].length - m[1].length)}${mask(value, 2)}`, start, start + value.length);
  }
}
var PROSE_RE = /\b(?:(?:password|passwd|passphrase|passcode|pw|pwd)\b(?:\s+(?:for|of|on)\s+[\w.@'-]+(?:\s+[\w.@'-]+){0,2}?)?\s+(?:is|was)\b|(?<![\w-])(?:pw|passcode)\s*[:=])\s*(["'`]?)([^\s"'`]+)\1/gi;
function detectPasswordProse(text2, out2) {
  for (const m of text2.matchAll(PROSE_RE)) {
    const value = m[2].replace(/[.,;:!?)\]]+$/, "");
    if (!looksLikeStatedPassword(value, 6)) continue;
    const start = m.index + m[0].length - m[2].length - m[1].length;
    if (out2.overlaps(start, start + value.length)) continue;
    out2.add("password-prose", `${m[0].slice(0, m[0].length - m[2].length - m[1].length)}${mask(value, 2)}`, start, start + value.length);
  }
}
function* linesOf(text2) {
  let start = 0;
  while (start <= text2.length) {
    const nl = text2.indexOf("\n", start);
    const end = nl === -1 ? text2.length : nl;
    yield { text: text2.slice(start, end), start };
    if (nl === -1) return;
    start = nl + 1;
  }
}
function detectAll(text2) {
  const out2 = new Findings();
  detectGcpServiceAccount(text2, out2);
  detectPrivateKeys(text2, out2);
  detectTokens(text2, out2);
  detectAzure(text2, out2);
  detectTwilioAuthTokens(text2, out2);
  detectAwsSecretKeys(text2, out2);
  detectUrlPasswords(text2, out2);
  detectBearer(text2, out2);
  detectAssignments(text2, out2);
  detectPasswordFlags(text2, out2);
  detectPasswordProse(text2, out2);
  return out2;
}
function secretSpans(text2) {
  return detectAll(text2).spanList();
}
function withoutSecrets(text2) {
  const spans = secretSpans(text2);
  if (spans.length === 0) return text2;
  let out2 = "";
  let at2 = 0;
  for (const s2 of spans) {
    if (s2.start > at2) out2 += text2.slice(at2, s2.start);
    out2 += " ";
    at2 = Math.max(at2, s2.end);
  }
  return out2 + text2.slice(at2);
}
function detectSecrets(text2) {
  return detectAll(text2).list;
}

// server/src/core/index/live.ts
import { existsSync as existsSync2 } from "node:fs";
import { join as join15 } from "node:path";

// server/src/core/index/checksum.ts
import { createHash as createHash2 } from "node:crypto";
import * as zlib from "node:zlib";
var SUM_CHARS = 40;
var CRC_TAG = "crc32:";
var crc322 = zlib.crc32;
var Crc32Sum = class {
  constructor(fn) {
    this.fn = fn;
  }
  fn;
  v = 0;
  update(bytes) {
    this.v = this.fn(bytes, this.v);
  }
  digest() {
    return `${CRC_TAG}${(this.v >>> 0).toString(16).padStart(8, "0")}`.padEnd(SUM_CHARS, " ");
  }
};
var Sha1Sum = class {
  h = createHash2("sha1");
  update(bytes) {
    this.h.update(bytes);
  }
  digest() {
    return this.h.digest("hex");
  }
};
function isChecksumSlot(slot) {
  return /^(?:[0-9a-f]{40}|crc32:[0-9a-f]{8} {26})$/.test(slot);
}
function newChecksum(opts = {}) {
  return crc322 && !opts.sha1 ? new Crc32Sum(crc322) : new Sha1Sum();
}
function checksumFor(slot) {
  if (slot.startsWith(CRC_TAG)) return crc322 ? new Crc32Sum(crc322) : null;
  return new Sha1Sum();
}

// server/src/core/index/cache.ts
import { closeSync as closeSync3, constants as constants2, fstatSync, openSync as openSync3, readdirSync as readdirSync4, readSync, renameSync as renameSync2, rmSync as rmSync4, writeSync as writeSync3 } from "node:fs";
import { join as join12 } from "node:path";

// server/src/core/index/stem.ts
var STEMMER_VERSION = 2;
var VOWELS = "aeiou";
function isConsonant(w2, i) {
  const ch = w2[i];
  if (VOWELS.includes(ch)) return false;
  if (ch === "y") return i === 0 || !isConsonant(w2, i - 1);
  return true;
}
function measure(w2) {
  let m = 0;
  let i = 0;
  const n = w2.length;
  while (i < n && isConsonant(w2, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(w2, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(w2, i)) i++;
    m++;
  }
  return m;
}
function hasVowel(w2) {
  for (let i = 0; i < w2.length; i++) if (!isConsonant(w2, i)) return true;
  return false;
}
function endsDoubleConsonant(w2) {
  const n = w2.length;
  return n >= 2 && w2[n - 1] === w2[n - 2] && isConsonant(w2, n - 1);
}
function endsCvc(w2) {
  const n = w2.length;
  if (n < 3) return false;
  const last = w2[n - 1];
  return isConsonant(w2, n - 3) && !isConsonant(w2, n - 2) && isConsonant(w2, n - 1) && !"wxy".includes(last);
}
function step1a(w2) {
  if (w2.endsWith("sses")) return w2.slice(0, -2);
  if (w2.endsWith("ies")) return w2.length > 4 ? w2.slice(0, -3) + "y" : w2.slice(0, -1);
  if (w2.endsWith("s") && !/(?:ss|us)$/.test(w2) && !(w2.endsWith("is") && w2.length > 4)) return w2.slice(0, -1);
  return w2;
}
function step1b(w2) {
  if (w2.endsWith("eed")) return measure(w2.slice(0, -3)) > 0 ? w2.slice(0, -1) : w2;
  if (w2.endsWith("ied") && w2.length > 4) return w2.slice(0, -3) + "y";
  let base = null;
  if (w2.endsWith("ed") && hasVowel(w2.slice(0, -2))) base = w2.slice(0, -2);
  else if (w2.endsWith("ing") && hasVowel(w2.slice(0, -3))) base = w2.slice(0, -3);
  if (base === null) return w2;
  if (/(?:at|bl|iz)$/.test(base)) return base + "e";
  if (endsDoubleConsonant(base) && !/[lsz]$/.test(base)) return base.slice(0, -1);
  if (measure(base) === 1 && endsCvc(base)) return base + "e";
  return base;
}
function stepFinalE(w2) {
  if (!w2.endsWith("e")) return w2;
  const base = w2.slice(0, -1);
  const m = measure(base);
  if (m > 1 || m === 1 && !endsCvc(base)) return base;
  return w2;
}
var ASCII_WORD = /^[a-z]+$/;
function stem(word) {
  if (word.length <= 2 || !ASCII_WORD.test(word)) return word;
  const out2 = stepFinalE(word.length >= 4 ? step1b(step1a(word)) : word);
  return out2.length >= 2 ? out2 : word;
}

// server/src/core/index/stopwords.ts
var WORDS = `
a about above after again against all almost also am an and any anyone anything are aren't around as at
be because been before being below between both but by
can can't cannot could couldn't
did didn't do does doesn't doing don't down during
each either else ever every
few for from further
get gets getting give go goes going got
had hadn't has hasn't have haven't having he her here hers herself him himself his how however
i i'd i'll i'm i've if in into is isn't it it's its itself
just
know
let let's like
may me might mine more most much must my myself
need needs no nor not now
of off often on once only or other others our ours ourselves out over own
please put
quite
rather really
said same say says see shall she should shouldn't so some something sometimes still such sure
tell than that that's the their theirs them themselves then there there's these they they're thing things
this those though through to too
under until up upon us
very
want was wasn't way we we'd we'll we're we've were weren't what what's whatever when where which while who
whom whose why will with within without won't would wouldn't
yes yet you you'd you'll you're you've your yours yourself yourselves
`;
var FOLDED_AWAY = /* @__PURE__ */ new Set(["id", "ill", "well", "wed", "shell", "hell", "shed", "lets", "wont", "cant"]);
var STOPWORDS = new Set(
  WORDS.split(/\s+/).flatMap((w2) => {
    if (w2 === "") return [];
    if (!w2.includes("'")) return [w2];
    const folded = w2.replace(/'/g, "");
    return FOLDED_AWAY.has(folded) ? [] : [folded];
  })
);
function isStopword(lowerWord) {
  return STOPWORDS.has(lowerWord);
}

// server/src/core/index/tokenize.ts
var TOKENIZER_VERSION = 2;
var MAX_TOKEN = 64;
var GROUP_RE = /[\p{L}\p{N}\p{M}]+(?:['\u2019][\p{L}\p{N}\p{M}]+)*(?:[-_:./][\p{L}\p{N}\p{M}]+(?:['\u2019][\p{L}\p{N}\p{M}]+)*)*/gu;
var JOINER_RE = /[-_:./]/;
var APOSTROPHE_RE = /['\u2019]/g;
var CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
var CAMEL_RE = new RegExp("(?<=[\\p{Ll}\\p{N}])(?=\\p{Lu})|(?<=\\p{Lu})(?=\\p{Lu}\\p{Ll}{2})", "u");
function splitParts(group, base, out2) {
  let offset = 0;
  for (const seg of group.split(JOINER_RE)) {
    let segOffset = 0;
    for (const piece of seg.split(CAMEL_RE)) {
      if (piece !== "") out2.push({ text: piece, start: base + offset + segOffset });
      segOffset += piece.length;
    }
    offset += seg.length + 1;
  }
}
function pushCjkAware(text2, start, parts) {
  if (!CJK_RE.test(text2)) {
    parts.push({ text: text2, start });
    return;
  }
  let run = "";
  let runStart = start;
  let i = 0;
  for (const ch of text2) {
    if (CJK_RE.test(ch)) {
      if (run !== "") parts.push({ text: run, start: runStart });
      parts.push({ text: ch, start: start + i });
      run = "";
      runStart = start + i + ch.length;
    } else {
      if (run === "") runStart = start + i;
      run += ch;
    }
    i += ch.length;
  }
  if (run !== "") parts.push({ text: run, start: runStart });
}
var SIMPLE_RE = /^[A-Za-z0-9][a-z0-9]*$/;
var STOP = "\0";
var WORD_CACHE_MAX = 1e5;
var wordCache = /* @__PURE__ */ new Map();
function termOf(w2) {
  let t = wordCache.get(w2);
  if (t === void 0) {
    if (wordCache.size >= WORD_CACHE_MAX) wordCache.clear();
    t = isStopword(w2) ? STOP : stem(w2);
    wordCache.set(w2, t);
  }
  return t;
}
var GROUP_AT = new RegExp(GROUP_RE.source, "uy");
var WORD_CHAR_RE = /[\p{L}\p{N}\p{M}]/u;
function isAsciiAlnum(c) {
  return c >= 97 && c <= 122 || c >= 48 && c <= 57 || c >= 65 && c <= 90;
}
function isJoiner(c) {
  return c === 45 || c === 95 || c === 58 || c === 46 || c === 47 || c === 39 || c === 8217;
}
function isWordAt(text2, i) {
  const c = text2.charCodeAt(i);
  if (c < 128) return isAsciiAlnum(c);
  return WORD_CHAR_RE.test(String.fromCodePoint(text2.codePointAt(i)));
}
function scanTokens(text2, sink) {
  let pos = 0;
  const n = text2.length;
  const raw = [];
  const parts = [];
  let halted = false;
  const complexGroup = (group, base) => {
    raw.length = 0;
    parts.length = 0;
    splitParts(group, base, raw);
    for (const r of raw) pushCjkAware(r.text, r.start, parts);
    const firstPos = pos;
    let whole = "";
    let kept = 0;
    for (const p of parts) {
      if (halted) return;
      const surface = p.text.toLowerCase().replace(APOSTROPHE_RE, "");
      if (surface === "" || surface.length > MAX_TOKEN) continue;
      const t = termOf(surface);
      if (sink(t === STOP ? surface : t, surface, pos++, p.start, p.start + p.text.length, false, t === STOP) === true) halted = true;
      whole += surface;
      kept++;
    }
    if (kept > 1 && whole.length <= MAX_TOKEN && !CJK_RE.test(group) && sink(whole, whole, firstPos, base, base + group.length, true, false) === true) halted = true;
  };
  let i = 0;
  while (i < n && !halted) {
    const c = text2.charCodeAt(i);
    if (c < 128) {
      if (!isAsciiAlnum(c)) {
        i++;
        continue;
      }
      let j = i + 1;
      let plain = true;
      for (; j < n; j++) {
        const d2 = text2.charCodeAt(j);
        if (d2 >= 97 && d2 <= 122 || d2 >= 48 && d2 <= 57) continue;
        if (d2 >= 65 && d2 <= 90) {
          plain = false;
          continue;
        }
        break;
      }
      const d = j < n ? text2.charCodeAt(j) : 32;
      const continues = d >= 128 || isJoiner(d) && j + 1 < n && isWordAt(text2, j + 1);
      if (!continues) {
        if (plain && j - i <= MAX_TOKEN) {
          const surface = text2.slice(i, j).toLowerCase();
          const t = termOf(surface);
          if (sink(t === STOP ? surface : t, surface, pos++, i, j, false, t === STOP) === true) halted = true;
        } else if (!plain) complexGroup(text2.slice(i, j), i);
        i = j;
        continue;
      }
    }
    GROUP_AT.lastIndex = i;
    const m = GROUP_AT.exec(text2);
    if (m === null) {
      i += c >= 55296 && c <= 56319 ? 2 : 1;
      continue;
    }
    const group = m[0];
    if (SIMPLE_RE.test(group)) {
      if (group.length <= MAX_TOKEN) {
        const surface = group.toLowerCase();
        const t = termOf(surface);
        if (sink(t === STOP ? surface : t, surface, pos++, i, i + group.length, false, t === STOP) === true) halted = true;
      }
    } else complexGroup(group, i);
    i += group.length;
  }
  return pos;
}
function tokenize(text2) {
  const out2 = [];
  scanTokens(text2, (term, surface, pos, start, end, whole, stop) => {
    out2.push({ term, surface, pos, start, end, whole, stop });
  });
  return out2;
}

// server/src/core/index/cache.ts
var CACHE_DIR = ".cache";
var CACHE_FILE = "search-index.bin";
var MAGIC = Buffer.from("CAIRNIDX", "latin1");
var FORMAT = 6;
var SHARED = ["origin", "scopes"];
var HEADER_SLOT = 4096;
var SUM_AT = 8;
var LEN_AT = 48;
var JSON_AT = 52;
var CHUNK = 2e3;
function cachePath(storeDir) {
  return join12(storeDir, CACHE_DIR, CACHE_FILE);
}
var LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
function* chunksOf(xs) {
  for (let i = 0; i < xs.length; i += CHUNK) yield xs.slice(i, i + CHUNK);
}
function* payloadParts(c, keys) {
  const seen = /* @__PURE__ */ new Set();
  for (const r of c.records) for (const k in r) if (Object.hasOwn(r, k)) seen.add(k);
  keys.push(...[...seen].sort());
  if (keys.length > 50) throw new Error(`records have ${keys.length} distinct keys; the cache supports 50`);
  const isShared = keys.map((k) => SHARED.includes(k));
  const table = [];
  const at2 = /* @__PURE__ */ new Map();
  for (const r of c.records) {
    for (let i = 0; i < keys.length; i++) {
      if (!isShared[i]) continue;
      const v = r[keys[i]];
      if (v !== void 0 && !at2.has(v)) {
        at2.set(v, table.length);
        table.push(v);
      }
    }
  }
  const row2 = (r) => {
    const out2 = [0];
    let mask2 = 0;
    for (let i = 0; i < keys.length; i++) {
      const v = r[keys[i]];
      if (v !== void 0 && Object.hasOwn(r, keys[i])) {
        mask2 += 2 ** i;
        out2.push(isShared[i] ? at2.get(v) : v);
      }
    }
    out2[0] = mask2;
    return out2;
  };
  let recordsBytes = 0;
  const emit = (s2) => {
    const b = Buffer.from(s2, "utf8");
    recordsBytes += b.length;
    return b;
  };
  yield ["records", emit(`${JSON.stringify(table)}
`)];
  for (let i = 0; i < c.records.length; i += CHUNK) {
    yield ["records", emit(`[${c.records.slice(i, i + CHUNK).map((r) => JSON.stringify(row2(r))).join(",")}]
`)];
  }
  const a = "analysis" in c ? c.analysis() : { terms: c.terms, parts: chunksOf(c.entries) };
  const terms = Buffer.from(a.terms.join("\n"), "utf8");
  yield ["terms", terms];
  yield ["pad", Buffer.alloc((4 - (recordsBytes + terms.length) % 4) % 4)];
  for (const part of a.parts) {
    if (part.length === 0) continue;
    let n = 0;
    for (const e of part) n += 4 + e.fwd.length;
    const data = new Int32Array(n);
    let o = 0;
    for (const e of part) {
      data[o++] = e.record;
      data[o++] = e.bodyLen;
      data[o++] = e.scopeLen;
      data[o++] = e.fwd.length;
      data.set(e.fwd, o);
      o += e.fwd.length;
    }
    const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (!LITTLE_ENDIAN) buf.swap32();
    yield ["ints", buf];
  }
}
function headerBytes(h) {
  const json = Buffer.from(JSON.stringify(h), "utf8");
  if (JSON_AT + json.length > HEADER_SLOT) throw new Error("cache header does not fit its slot");
  const out2 = Buffer.alloc(HEADER_SLOT, 32);
  MAGIC.copy(out2, 0);
  out2.writeUInt32LE(json.length, LEN_AT);
  json.copy(out2, JSON_AT);
  return out2;
}
async function encodeInto(c, write2, pause3) {
  const keys = [];
  const sum = newChecksum();
  const size2 = { records: 0, terms: 0, pad: 0, ints: 0 };
  for (const [section3, buf] of payloadParts(c, keys)) {
    sum.update(buf);
    size2[section3] += buf.length;
    write2(buf);
    if (pause3) await pause3();
  }
  const header = headerBytes({
    format: FORMAT,
    tokenizer: TOKENIZER_VERSION,
    stemmer: STEMMER_VERSION,
    keys,
    shared: keys.filter((k) => SHARED.includes(k)),
    recordsBytes: size2.records,
    termsBytes: size2.terms,
    ints: size2.ints / 4,
    ...c.uniqueIds === true ? { uniqueIds: true } : {}
  });
  sum.update(header.subarray(LEN_AT));
  header.write(sum.digest(), SUM_AT, "latin1");
  return header;
}
var READ_CHUNK = 1 << 20;
function decodeFrom(read, size2, revive) {
  if (size2 < 8) throw new Error("not a cairn index cache");
  const head = read(0, Math.min(HEADER_SLOT, size2));
  if (!head.subarray(0, 8).equals(MAGIC)) throw new Error("not a cairn index cache");
  if (size2 < HEADER_SLOT) throw new Error("truncated header");
  const hlen = head.readUInt32LE(LEN_AT);
  if (JSON_AT + hlen > HEADER_SLOT) throw new Error("unreadable header");
  let h;
  try {
    h = JSON.parse(head.subarray(JSON_AT, JSON_AT + hlen).toString("utf8"));
  } catch {
    throw new Error("unreadable header");
  }
  if (h.format !== FORMAT || h.tokenizer !== TOKENIZER_VERSION || h.stemmer !== STEMMER_VERSION) {
    throw new Error("written by another version");
  }
  const pad = (4 - (h.recordsBytes + h.termsBytes) % 4) % 4;
  if (size2 - HEADER_SLOT !== h.recordsBytes + h.termsBytes + pad + h.ints * 4) throw new Error("truncated or extended payload");
  const stored = head.subarray(SUM_AT, LEN_AT).toString("latin1");
  const sum = checksumFor(stored);
  if (sum === null) throw new Error("checksum of a kind this Node cannot compute");
  if (!Array.isArray(h.keys) || !Array.isArray(h.shared) || !h.shared.every((k) => h.keys.includes(k))) throw new Error("unreadable header");
  const isShared = h.keys.map((k) => h.shared.includes(k));
  const records = [];
  let table = null;
  const nKeys = h.keys.length;
  let rowObject = null;
  if (revive) {
    rowObject = {};
    for (const k of h.keys) rowObject[k] = void 0;
  }
  const takeLine = (line) => {
    let rows;
    try {
      rows = JSON.parse(line.toString("utf8"));
    } catch {
      throw new Error("malformed records");
    }
    if (!Array.isArray(rows)) throw new Error("malformed records");
    if (table === null) {
      table = rows;
      return;
    }
    const tab = table;
    for (const row2 of rows) {
      if (!Array.isArray(row2) || typeof row2[0] !== "number") throw new Error("malformed record");
      const r = rowObject ?? {};
      let mask2 = row2[0];
      let v = 1;
      for (let i = 0; i < nKeys; i++) {
        if (mask2 % 2 === 1) {
          const x = row2[v++];
          if (!isShared[i]) r[h.keys[i]] = x;
          else if (typeof x === "number" && Number.isInteger(x) && x >= 0 && x < tab.length) r[h.keys[i]] = tab[x];
          else throw new Error("malformed record");
        } else if (rowObject !== null) r[h.keys[i]] = void 0;
        else if (mask2 === 0) break;
        mask2 = Math.floor(mask2 / 2);
      }
      if (!revive) records.push(r);
      else {
        try {
          records.push(revive(r));
        } catch {
          throw new Error("malformed record");
        }
      }
    }
  };
  let pos = HEADER_SLOT;
  let scratch2 = Buffer.allocUnsafe(Math.max(2 * READ_CHUNK, Math.min(READ_CHUNK, h.ints * 4)));
  let carry = 0;
  for (let left = h.recordsBytes; left > 0; ) {
    if (scratch2.length - carry < Math.min(READ_CHUNK, left)) {
      const grown = Buffer.allocUnsafe(Math.max(2 * scratch2.length, carry + Math.min(READ_CHUNK, left)));
      scratch2.copy(grown, 0, 0, carry);
      scratch2 = grown;
    }
    const want = Math.min(READ_CHUNK, left, scratch2.length - carry);
    const target = scratch2.subarray(carry, carry + want);
    const chunk = read(pos, want, target);
    if (chunk.buffer !== target.buffer || chunk.byteOffset !== target.byteOffset) chunk.copy(target);
    sum.update(target);
    pos += want;
    left -= want;
    const data2 = scratch2.subarray(0, carry + want);
    let start = 0;
    for (let nl = data2.indexOf(10, carry); nl >= 0; nl = data2.indexOf(10, start)) {
      takeLine(data2.subarray(start, nl));
      start = nl + 1;
    }
    carry = data2.length - start;
    if (start > 0 && carry > 0) scratch2.copyWithin(0, start, data2.length);
  }
  if (carry > 0) takeLine(scratch2.subarray(0, carry));
  const termsBuf = read(pos, h.termsBytes + pad);
  sum.update(termsBuf);
  pos += termsBuf.length;
  const termsText = termsBuf.subarray(0, h.termsBytes).toString("utf8");
  const terms = termsText === "" ? [] : termsText.split("\n");
  const data = new Int32Array(h.ints);
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  for (let o = 0; o < bytes.length; ) {
    const chunk = read(pos, Math.min(READ_CHUNK, bytes.length - o), scratch2);
    sum.update(chunk);
    chunk.copy(bytes, o);
    o += chunk.length;
    pos += chunk.length;
  }
  sum.update(head.subarray(LEN_AT));
  if (sum.digest() !== stored) throw new Error("checksum mismatch");
  if (!LITTLE_ENDIAN) bytes.swap32();
  const entries = [];
  for (let o = 0; o < data.length; ) {
    if (o + 4 > data.length) throw new Error("truncated entry");
    const record = data[o];
    const n = data[o + 3];
    if (record < 0 || record >= records.length || n < 0 || o + 4 + n > data.length) throw new Error("malformed entry");
    entries.push({ record, bodyLen: data[o + 1], scopeLen: data[o + 2], fwd: data.subarray(o + 4, o + 4 + n) });
    o += 4 + n;
  }
  return { records, terms, entries, ...h.uniqueIds === true ? { uniqueIds: true } : {} };
}
function readCacheId(storeDir) {
  if (!isOwnDirSync(join12(storeDir, CACHE_DIR))) return null;
  let fd;
  try {
    fd = openSync3(cachePath(storeDir), constants2.O_RDONLY | constants2.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(HEADER_SLOT);
    if (readSync(fd, head, 0, HEADER_SLOT, 0) !== HEADER_SLOT || !head.subarray(0, 8).equals(MAGIC)) return null;
    const hlen = head.readUInt32LE(LEN_AT);
    if (JSON_AT + hlen > HEADER_SLOT) return null;
    const h = JSON.parse(head.subarray(JSON_AT, JSON_AT + hlen).toString("utf8"));
    if (h.format !== FORMAT || h.tokenizer !== TOKENIZER_VERSION || h.stemmer !== STEMMER_VERSION) return null;
    const slot = head.subarray(SUM_AT, LEN_AT).toString("latin1");
    return isChecksumSlot(slot) ? slot : null;
  } catch {
    return null;
  } finally {
    closeSync3(fd);
  }
}
function readCache(storeDir, onReject, revive) {
  if (!isOwnDirSync(join12(storeDir, CACHE_DIR))) return null;
  let fd;
  try {
    fd = openSync3(cachePath(storeDir), constants2.O_RDONLY | constants2.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const size2 = fstatSync(fd).size;
    return decodeFrom((pos, len, into) => {
      const b = into ? into.subarray(0, len) : Buffer.allocUnsafe(len);
      let got = 0;
      while (got < len) {
        const n = readSync(fd, b, got, len - got, pos + got);
        if (n === 0) throw new Error("truncated or extended payload");
        got += n;
      }
      return b;
    }, size2, revive);
  } catch (err) {
    onReject?.(err instanceof Error ? err.message : String(err));
    return null;
  } finally {
    closeSync3(fd);
  }
}
function removeDeadTemps(dir) {
  let names = [];
  try {
    names = readdirSync4(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const m = /^search-index\.bin\.(\d+)\.[0-9a-z]+\.tmp$/.exec(n);
    if (m && Number(m[1]) !== process.pid && !pidAlive(Number(m[1]))) rmSync4(join12(dir, n), { force: true });
  }
}
async function writeCache(storeDir, c, pause3) {
  const dir = join12(storeDir, CACHE_DIR);
  ensureOwnDirSync(dir);
  removeDeadTemps(dir);
  const target = cachePath(storeDir);
  const tmp = `${target}.${process.pid}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}.tmp`;
  const fd = openSync3(tmp, "w", 384);
  let ok = false;
  let id = "";
  try {
    let pos = HEADER_SLOT;
    const header = await encodeInto(
      c,
      (b) => {
        writeSync3(fd, b, 0, b.length, pos);
        pos += b.length;
      },
      pause3
    );
    writeSync3(fd, header, 0, header.length, 0);
    await fsyncFd(fd);
    id = header.subarray(SUM_AT, LEN_AT).toString("latin1");
    ok = true;
  } finally {
    closeSync3(fd);
    if (!ok) rmSync4(tmp, { force: true });
  }
  try {
    renameSync2(tmp, target);
  } catch (err) {
    rmSync4(tmp, { force: true });
    throw err;
  }
  return id;
}

// server/src/core/store/freshness.ts
import { readdirSync as readdirSync5, statSync as statSync4, watch } from "node:fs";
import { dirname as dirname7, join as join13 } from "node:path";
var FULL_SYNC_INTERVAL_MS = 500;
var DIR_DIFF_INTERVAL_MS = 1e3;
var DRAIN_DELAY_MS = 25;
function isMemoryName(name) {
  return name.endsWith(".md") && !name.startsWith(".");
}
function mtimeOf(dir) {
  try {
    return statSync4(dir, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  } catch {
    return -1;
  }
}
var Freshness = class {
  constructor(store, warn) {
    this.store = store;
    this.warn = warn;
  }
  store;
  warn;
  watchers = /* @__PURE__ */ new Map();
  pending = /* @__PURE__ */ new Set();
  needFull = false;
  broken = false;
  lastFull = 0;
  lastDiff = 0;
  dirMtime = /* @__PURE__ */ new Map();
  chain = Promise.resolve();
  drainTimer = null;
  stopped = false;
  /** Directories a watch failed on (missing, or not a directory), with their own mtime then (-1: missing; see ensureWatch). */
  absent = /* @__PURE__ */ new Map();
  /** Own writes in progress: the mtimes they move are not compared until they are done. */
  ownWrites = 0;
  /** Something changed in the notes area (or may have): reconcile it on the next check. */
  notesDirty = true;
  lastNotesSync = 0;
  /**
   * Starts watching. Call it before the store's first load: a change made while the load reads
   * the directory is then queued (or moves a directory mtime) instead of being lost.
   */
  start() {
    this.ensureWatch(this.store.dir);
    this.ensureWatch(this.store.tombDir);
    this.ensureWatch(this.store.notesDir);
    this.notesDirty = false;
    this.noteDirs();
  }
  /** Makes every store read call check() first. */
  install() {
    this.store.setFreshness(() => this.check(), {
      beforeWrite: () => {
        this.ownWrites++;
        return !this.broken && this.dirsAsNoted();
      },
      afterWrite: (clean) => {
        this.ownWrites--;
        if (clean && !this.stopped) this.noteDirs();
      }
    });
  }
  dirsAsNoted() {
    for (const d of [this.store.dir, this.store.tombDir]) if (mtimeOf(d) !== this.dirMtime.get(d)) return false;
    return true;
  }
  stop() {
    this.stopped = true;
    for (const w2 of this.watchers.values()) w2.close();
    this.watchers.clear();
    if (this.drainTimer) clearTimeout(this.drainTimer);
    this.drainTimer = null;
  }
  /** Remembers the current directory mtimes: called after the store applied a change itself. */
  noteDirs() {
    for (const d of [this.store.dir, this.store.tombDir]) this.dirMtime.set(d, mtimeOf(d));
  }
  /**
   * Reads wait for `p` (a cache-started store's check against its files), but at most `ms` in
   * all: a small store is exact from its first answer, a big one answers from the snapshot.
   */
  waitFor(p, ms) {
    if (ms === Infinity) {
      this.chain = this.chain.then(() => p);
      return;
    }
    let timer;
    const bounded = new Promise((r) => {
      timer = setTimeout(r, ms);
      timer.unref();
    });
    this.chain = this.chain.then(() => Promise.race([p, bounded])).finally(() => clearTimeout(timer));
  }
  /** Serialized: concurrent reads wait for one another's refresh instead of racing it. */
  check() {
    const run = this.chain.then(() => this.refresh());
    this.chain = run.catch(() => {
    });
    return run;
  }
  async refresh() {
    if (this.stopped) return;
    if (this.broken) {
      if (Date.now() - this.lastFull >= FULL_SYNC_INTERVAL_MS) {
        this.lastFull = Date.now();
        await this.store.sync();
      }
      return;
    }
    this.ensureWatch(this.store.dir);
    this.ensureWatch(this.store.tombDir);
    this.ensureWatch(this.store.notesDir);
    const now = Date.now();
    if (!this.watchers.has(this.store.notesDir) && now - this.lastNotesSync >= DIR_DIFF_INTERVAL_MS) this.notesDirty = true;
    if (this.notesDirty) {
      this.notesDirty = false;
      this.lastNotesSync = now;
      await this.store.syncNotes();
    }
    let yielded = false;
    for (const d of this.ownWrites > 0 ? [] : [this.store.dir, this.store.tombDir]) {
      const m = mtimeOf(d);
      if (m === this.dirMtime.get(d)) continue;
      if (!yielded) await new Promise((r) => setImmediate(r));
      yielded = true;
      if (now - this.lastDiff < DIR_DIFF_INTERVAL_MS) continue;
      this.dirMtime.set(d, m);
      this.lastDiff = now;
      this.diffDir(d);
    }
    if (this.needFull) {
      this.needFull = false;
      this.pending.clear();
      await this.store.sync();
      return;
    }
    if (this.pending.size === 0) return;
    const paths = [...this.pending];
    this.pending.clear();
    await this.store.refreshPaths(paths);
  }
  /** Queues the entries of `dir` that appeared or vanished compared with the store's view. */
  diffDir(dir) {
    let names;
    try {
      names = readdirSync5(dir);
    } catch {
      names = [];
    }
    const onDisk = /* @__PURE__ */ new Set();
    for (const n of names) if (isMemoryName(n)) onDisk.add(join13(dir, n));
    const known = this.store.fileStats();
    for (const p of known.keys()) if (dirname7(p) === dir && !onDisk.has(p)) this.pending.add(p);
    for (const p of onDisk) if (!known.has(p)) this.pending.add(p);
  }
  ensureWatch(dir) {
    if (this.broken || this.stopped || this.watchers.has(dir)) return;
    const failedAt = this.absent.get(dir);
    if (failedAt !== void 0 && failedAt === mtimeOf(dir)) return;
    let w2;
    try {
      const recursive = dir === this.store.notesDir;
      w2 = watch(dir, { persistent: false, recursive }, (_event, name) => this.onEvent(dir, name));
    } catch (err) {
      const code = err.code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        this.absent.set(dir, mtimeOf(dir));
        return;
      }
      this.fail(`cannot watch ${dir} (${err.message})`);
      return;
    }
    w2.on("error", (err) => {
      this.watchers.delete(dir);
      w2.close();
      if (err.code === "ENOENT" || err.code === "EPERM") this.needFull = true;
      else this.fail(`watching ${dir} failed (${err.message})`);
    });
    this.watchers.set(dir, w2);
    this.dirMtime.delete(dir);
    if (dir === this.store.notesDir) this.notesDirty = true;
  }
  onEvent(dir, name) {
    if (name === null) this.needFull = true;
    else if (dir === this.store.notesDir) this.notesDirty = true;
    else {
      const n = name.toString();
      this.absent.delete(join13(dir, n));
      if (isMemoryName(n)) this.pending.add(join13(dir, n));
      else if (dir === this.store.dir && n === ".tombstones") this.ensureWatch(this.store.tombDir);
      else if (dir === this.store.dir && n === "notes") {
        this.ensureWatch(this.store.notesDir);
        this.notesDirty = true;
      } else return;
    }
    if (this.drainTimer === null && !this.stopped) {
      this.drainTimer = setTimeout(() => {
        this.drainTimer = null;
        this.check().catch((err) => this.warn(`index refresh failed: ${err.message}`));
      }, DRAIN_DELAY_MS);
      this.drainTimer.unref();
    }
  }
  fail(reason) {
    if (this.broken) return;
    this.broken = true;
    this.warn(`${reason}; falling back to a full rescan before reads (at most every ${FULL_SYNC_INTERVAL_MS} ms)`);
    for (const w2 of this.watchers.values()) w2.close();
    this.watchers.clear();
  }
};

// server/src/core/index/gc.ts
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
var fullGc;
function collectGarbage() {
  if (fullGc === void 0) {
    fullGc = null;
    const exposed = globalThis.gc;
    if (typeof exposed === "function") fullGc = exposed;
    else {
      try {
        setFlagsFromString("--expose-gc");
        const fn = runInNewContext("gc");
        if (typeof fn === "function") fullGc = fn;
      } catch {
      }
    }
  }
  fullGc?.();
}

// server/src/core/index/overviewCache.ts
import { closeSync as closeSync4, constants as constants3, fstatSync as fstatSync2, openSync as openSync4, readSync as readSync2, renameSync as renameSync3, rmSync as rmSync5, writeFileSync as writeFileSync2 } from "node:fs";
import { join as join14 } from "node:path";
var OVERVIEW_FILE = "overview.json";
var FORMAT2 = 1;
var MAX_BYTES = 64 << 20;
function overviewGroups(records, repoKey) {
  const at2 = /* @__PURE__ */ new Map();
  for (const r of records) {
    const repo = repoKey(r);
    const key = `${repo ?? ""}\0${repo === null ? 0 : 1}\0${r.scopes.join("\n")}\0${r.expires ?? ""}`;
    const g = at2.get(key);
    if (g) g.n++;
    else at2.set(key, { repo, scopes: [...r.scopes], expires: r.expires, n: 1 });
  }
  return [...at2.values()];
}
function writeOverview(storeDir, cacheId, groups) {
  const dir = join14(storeDir, CACHE_DIR);
  ensureOwnDirSync(dir);
  const target = join14(dir, OVERVIEW_FILE);
  const tmp = `${target}.${process.pid}.${Date.now().toString(36)}.tmp`;
  const body = { format: FORMAT2, cache: cacheId, dir: storeDir, groups };
  try {
    writeFileSync2(tmp, JSON.stringify(body), { mode: 384, flag: "wx" });
    renameSync3(tmp, target);
  } catch (err) {
    rmSync5(tmp, { force: true });
    throw err;
  }
}
var isText = (v) => typeof v === "string";
function readOverview(storeDir) {
  if (!isOwnDirSync(join14(storeDir, CACHE_DIR))) return null;
  const cacheId = readCacheId(storeDir);
  if (cacheId === null) return null;
  let fd;
  try {
    fd = openSync4(join14(storeDir, CACHE_DIR, OVERVIEW_FILE), constants3.O_RDONLY | constants3.O_NOFOLLOW);
  } catch {
    return null;
  }
  let text2;
  try {
    const size2 = fstatSync2(fd).size;
    if (size2 > MAX_BYTES) return null;
    const buf = Buffer.allocUnsafe(size2);
    let got = 0;
    while (got < size2) {
      const n = readSync2(fd, buf, got, size2 - got, got);
      if (n === 0) return null;
      got += n;
    }
    text2 = buf.toString("utf8");
  } catch {
    return null;
  } finally {
    closeSync4(fd);
  }
  let f;
  try {
    f = JSON.parse(text2);
  } catch {
    return null;
  }
  if (typeof f !== "object" || f === null || f.format !== FORMAT2 || f.cache !== cacheId || f.dir !== storeDir || !Array.isArray(f.groups)) return null;
  for (const g of f.groups) {
    const o = g;
    if (typeof o !== "object" || o === null) return null;
    if (!(o.repo === null || isText(o.repo)) || !(o.expires === null || isText(o.expires))) return null;
    if (!Array.isArray(o.scopes) || !o.scopes.every(isText) || !Number.isSafeInteger(o.n) || o.n < 1) return null;
  }
  return f.groups;
}

// server/src/core/index/postings.ts
var TF_MASK = 65535;
var SCOPE_SHIFT = 16;
var ALIAS_SHIFT = 24;
function packTf(body, scope, alias = 0) {
  return Math.min(body, 65535) | Math.min(scope, 255) << SCOPE_SHIFT | Math.min(alias, 127) << ALIAS_SHIFT;
}
var SLOT_BITS = 24;
var SLOT_MASK = 16777215;
var MAX_SLOTS = 1 << SLOT_BITS;
var BODY_TF_MAX = 31;
var SCOPE_TF_MAX = 3;
function posting(slot, packed) {
  const tb = Math.min(packed & TF_MASK, BODY_TF_MAX);
  const ts = Math.min(packed >>> SCOPE_SHIFT & 255, SCOPE_TF_MAX);
  const ta = packed >>> ALIAS_SHIFT === 0 ? 0 : 1;
  return slot | tb << 24 | ts << 29 | ta << 31;
}
function postingTf(e) {
  return e >>> 24 & BODY_TF_MAX | (e >>> 29 & SCOPE_TF_MAX) << SCOPE_SHIFT | e >>> 31 << ALIAS_SHIFT;
}
var PREFIX_KEY = 4;
var META_ALIVE = 1 << 24;
var META_EXPIRES = 1 << 25;
function metaOf(bodyLen, scopeLen, expires) {
  return Math.min(bodyLen, 65535) | Math.min(scopeLen, 255) << 16 | META_ALIVE | (Number.isFinite(expires) ? META_EXPIRES : 0);
}
function grownInt32(a, need) {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}
function grownFloat64(a, need) {
  if (need <= a.length) return a;
  const b = new Float64Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}
function grownUint8(a, need) {
  if (need <= a.length) return a;
  const b = new Uint8Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}
var EMPTY = new Int32Array(0);
var Postings = class {
  // vocabulary
  termIds = /* @__PURE__ */ new Map();
  terms = [];
  df = new Int32Array(0);
  lists = [];
  /** used length of lists[t] (postings) */
  listLen = new Int32Array(0);
  prefixBuckets = /* @__PURE__ */ new Map();
  // slots
  slots = 0;
  live = 0;
  sumBody = 0;
  sumScope = 0;
  alive = new Uint8Array(0);
  /** see metaOf */
  meta = new Int32Array(0);
  bodyLen = new Int32Array(0);
  scopeLen = new Int32Array(0);
  /** max(created, updated) in epoch ms */
  recency = new Float64Array(0);
  /** expiry in epoch ms, +Infinity for none: expired memories never match */
  expires = new Float64Array(0);
  /** bumped whenever slots are renumbered, so per-slot caches elsewhere know to start over */
  epoch = 0;
  intern(term) {
    let id = this.termIds.get(term);
    if (id !== void 0) return id;
    id = this.terms.length;
    this.termIds.set(term, id);
    this.terms.push(term);
    this.df = grownInt32(this.df, id + 1);
    this.listLen = grownInt32(this.listLen, id + 1);
    this.lists.push(EMPTY);
    if (term.length >= PREFIX_KEY) {
      const key = term.slice(0, PREFIX_KEY);
      const b = this.prefixBuckets.get(key);
      if (b) b.push(id);
      else this.prefixBuckets.set(key, [id]);
    }
    return id;
  }
  /** Makes room for `n` slots and `terms` terms at once (a bulk load that knows its size skips the doublings). */
  reserve(n, terms = 0) {
    this.df = grownInt32(this.df, terms);
    this.listLen = grownInt32(this.listLen, terms);
    this.alive = grownUint8(this.alive, n);
    this.meta = grownInt32(this.meta, n);
    this.bodyLen = grownInt32(this.bodyLen, n);
    this.scopeLen = grownInt32(this.scopeLen, n);
    this.recency = grownFloat64(this.recency, n);
    this.expires = grownFloat64(this.expires, n);
  }
  /** Records a new slot's field data; its postings come from append() or buildLists(). */
  addSlot(bodyLen, scopeLen, recency, expires) {
    const slot = this.slots;
    if (slot >= MAX_SLOTS) throw new Error(`the search index holds at most ${MAX_SLOTS} slots`);
    this.slots++;
    this.alive = grownUint8(this.alive, slot + 1);
    this.meta = grownInt32(this.meta, slot + 1);
    this.bodyLen = grownInt32(this.bodyLen, slot + 1);
    this.scopeLen = grownInt32(this.scopeLen, slot + 1);
    this.recency = grownFloat64(this.recency, slot + 1);
    this.expires = grownFloat64(this.expires, slot + 1);
    this.alive[slot] = 1;
    this.meta[slot] = metaOf(bodyLen, scopeLen, expires);
    this.bodyLen[slot] = bodyLen;
    this.scopeLen[slot] = scopeLen;
    this.recency[slot] = recency;
    this.expires[slot] = expires;
    this.live++;
    this.sumBody += bodyLen;
    this.sumScope += scopeLen;
    return slot;
  }
  /** Appends a slot's postings; `fwd` = [termId, packedTf] pairs sorted by term id. */
  append(slot, fwd) {
    for (let i = 0; i < fwd.length; i += 2) {
      const t = fwd[i];
      const len = this.listLen[t];
      let list2 = this.lists[t];
      if (len === list2.length) list2 = this.lists[t] = grownInt32(list2, len + 1);
      list2[len] = posting(slot, fwd[i + 1]);
      this.listLen[t] = len + 1;
      this.df[t]++;
    }
  }
  /** Kills a slot; `fwd` = its analysis (re-derived from its text by the caller), for df. */
  kill(slot, fwd) {
    if (!this.alive[slot]) return;
    this.alive[slot] = 0;
    this.meta[slot] = 0;
    this.live--;
    this.sumBody -= this.bodyLen[slot];
    this.sumScope -= this.scopeLen[slot];
    for (let i = 0; i < fwd.length; i += 2) this.df[fwd[i]]--;
  }
  needsCompaction() {
    const dead = this.slots - this.live;
    return dead > 1024 && dead > this.live || this.slots >= MAX_SLOTS - 1024;
  }
  /**
   * Renumbers live slots densely and drops dead postings from every list (order is kept: the
   * renumbering is monotonic). Returns old slot -> new slot (-1 for dead ones).
   */
  compact() {
    const remap = new Int32Array(this.slots).fill(-1);
    let n = 0;
    for (let s2 = 0; s2 < this.slots; s2++) if (this.alive[s2]) remap[s2] = n++;
    const bodyLen = new Int32Array(n);
    const scopeLen = new Int32Array(n);
    const recency = new Float64Array(n);
    const expires = new Float64Array(n);
    const meta = new Int32Array(n);
    for (let s2 = 0; s2 < this.slots; s2++) {
      const d = remap[s2];
      if (d < 0) continue;
      meta[d] = this.meta[s2];
      bodyLen[d] = this.bodyLen[s2];
      scopeLen[d] = this.scopeLen[s2];
      recency[d] = this.recency[s2];
      expires[d] = this.expires[s2];
    }
    for (let t = 0; t < this.terms.length; t++) {
      const list2 = this.lists[t];
      const len = this.listLen[t];
      const out2 = this.df[t] > 0 ? new Int32Array(this.df[t]) : EMPTY;
      let o = 0;
      for (let i = 0; i < len; i++) {
        const e = list2[i];
        const d = remap[e & SLOT_MASK];
        if (d >= 0) out2[o++] = e & ~SLOT_MASK | d;
      }
      this.lists[t] = out2;
      this.listLen[t] = o;
    }
    this.bodyLen = bodyLen;
    this.scopeLen = scopeLen;
    this.recency = recency;
    this.expires = expires;
    this.meta = meta;
    this.alive = new Uint8Array(n).fill(1);
    this.slots = n;
    this.epoch++;
    return remap;
  }
  /** Builds df and every list at its exact size from each slot's analysis (bulk loads). */
  buildLists(fwdBySlot) {
    const nt = this.terms.length;
    const df = new Int32Array(nt);
    for (let s2 = 0; s2 < this.slots; s2++) {
      const f = fwdBySlot[s2];
      if (!f || !this.alive[s2]) continue;
      for (let i = 0; i < f.length; i += 2) df[f[i]]++;
    }
    const lists = new Array(nt);
    for (let t = 0; t < nt; t++) lists[t] = df[t] > 0 ? new Int32Array(df[t]) : EMPTY;
    const fill2 = new Int32Array(nt);
    for (let s2 = 0; s2 < this.slots; s2++) {
      const f = fwdBySlot[s2];
      if (!f || !this.alive[s2]) continue;
      for (let i = 0; i < f.length; i += 2) {
        const t = f[i];
        lists[t][fill2[t]++] = posting(s2, f[i + 1]);
      }
    }
    this.df = df;
    this.lists = lists;
    this.listLen = fill2;
  }
  /** Each live slot's analysis ([termId, packedTf] pairs by term id), rebuilt from the lists: one read of every slot. */
  forwardLists() {
    return this.forwardReader().read(0, this.slots);
  }
  /**
   * A reader of each live slot's analysis a slot range at a time, ascending (0..a, a..b, ...), over
   * the lists as they are now: later appends (new slots), kills and compactions do not show
   * (the list arrays are never edited in place below their recorded length). The cache save
   * streams with it instead of holding every forward list at once (~70 MB at 200k memories).
   */
  forwardReader() {
    const nt = this.terms.length;
    const lists = this.lists.slice(0, nt);
    const lens = this.listLen.slice(0, nt);
    const slots = this.slots;
    const alive = this.alive.slice(0, slots);
    const pos = new Int32Array(nt);
    const read = (from, to) => {
      const count = new Int32Array(to - from);
      for (let t = 0; t < nt; t++) {
        const list2 = lists[t];
        const len = lens[t];
        for (let i = pos[t]; i < len; i++) {
          const s2 = list2[i] & SLOT_MASK;
          if (s2 >= to) break;
          count[s2 - from]++;
        }
      }
      let total = 0;
      for (let s2 = from; s2 < to; s2++) if (alive[s2]) total += count[s2 - from] * 2;
      const all = new Int32Array(total);
      const out2 = new Array(to - from);
      for (let s2 = from, o = 0; s2 < to; s2++) {
        if (!alive[s2]) continue;
        const n = count[s2 - from] * 2;
        out2[s2 - from] = all.subarray(o, o + n);
        o += n;
      }
      const fill2 = new Int32Array(to - from);
      for (let t = 0; t < nt; t++) {
        const list2 = lists[t];
        const len = lens[t];
        let i = pos[t];
        for (; i < len; i++) {
          const e = list2[i];
          const s2 = e & SLOT_MASK;
          if (s2 >= to) break;
          const f = out2[s2 - from];
          if (!f) continue;
          const k = fill2[s2 - from];
          f[k] = t;
          f[k + 1] = postingTf(e);
          fill2[s2 - from] = k + 2;
        }
        pos[t] = i;
      }
      return out2;
    };
    return { slots, alive, read };
  }
  /** The analysis tf pair of `term` in `slot`, or 0: binary search in the term's list. */
  tfOf(slot, term) {
    const list2 = this.lists[term];
    let lo = 0;
    let hi = this.listLen[term] - 1;
    while (lo <= hi) {
      const mid = lo + hi >> 1;
      const s2 = list2[mid] & SLOT_MASK;
      if (s2 === slot) return postingTf(list2[mid]);
      if (s2 < slot) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }
};

// server/src/core/index/analyze.ts
var ids = new Int32Array(512);
var out = new Int32Array(1024);
var Int32Arena = class {
  constructor(chunkInts = 1 << 20) {
    this.chunkInts = chunkInts;
  }
  chunkInts;
  chunk = new Int32Array(0);
  used = 0;
  take(n) {
    if (this.used + n > this.chunk.length) {
      this.chunk = new Int32Array(Math.max(this.chunkInts, n));
      this.used = 0;
    }
    const view2 = this.chunk.subarray(this.used, this.used + n);
    this.used += n;
    return view2;
  }
};
function analyzeDoc(doc, p, arena) {
  let n = 0;
  let field2 = 0;
  const push = (term, _s, _p, _a, _b, _w, stop) => {
    if (stop) return;
    if (n === ids.length) {
      const next2 = new Int32Array(ids.length * 2);
      next2.set(ids);
      ids = next2;
    }
    ids[n++] = p.intern(term) * 4 + field2;
  };
  const bodyLen = scanTokens(doc.body, push);
  field2 = 1;
  let scopeLen = 0;
  for (const sc of doc.scopes) scopeLen += scanTokens(sc, push);
  field2 = 2;
  if (doc.aliases) for (const a of doc.aliases) scanTokens(a, push);
  const all = ids.subarray(0, n).sort();
  if (out.length < n * 2) out = new Int32Array(n * 2);
  let o = 0;
  let i = 0;
  while (i < n) {
    const t = all[i] >> 2;
    let tb = 0;
    let ts = 0;
    let ta = 0;
    for (; i < n && all[i] >> 2 === t; i++) {
      const f = all[i] & 3;
      if (f === 0) tb++;
      else if (f === 1) ts++;
      else ta++;
    }
    out[o++] = t;
    out[o++] = packTf(tb, ts, ta);
  }
  let fwd;
  if (arena) {
    fwd = arena.take(o);
    fwd.set(out.subarray(0, o));
  } else fwd = out.slice(0, o);
  return { fwd, bodyLen, scopeLen };
}
var MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function digitsAt(s2, i, n) {
  let v = 0;
  for (let k = i; k < i + n; k++) {
    const c = s2.charCodeAt(k) - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
}
function daysFromCivil(y, m, d) {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
function isoMs(iso) {
  if (iso.length === 24 && iso.charCodeAt(23) === 90 && iso.charCodeAt(10) === 84) {
    const y = digitsAt(iso, 0, 4);
    const mo = digitsAt(iso, 5, 2);
    const day2 = digitsAt(iso, 8, 2);
    const h = digitsAt(iso, 11, 2);
    const mi = digitsAt(iso, 14, 2);
    const sec = digitsAt(iso, 17, 2);
    const ms = digitsAt(iso, 20, 3);
    if (y >= 100 && mo >= 1 && mo <= 12 && day2 >= 1 && h <= 23 && mi <= 59 && sec <= 59 && ms >= 0) {
      const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
      if (day2 <= (mo === 2 && leap ? 29 : MONTH_DAYS[mo - 1])) return daysFromCivil(y, mo, day2) * 864e5 + h * 36e5 + mi * 6e4 + sec * 1e3 + ms;
    }
  }
  return Date.parse(iso);
}
function recencyOf(doc) {
  const c = isoMs(doc.created);
  const u2 = doc.updated === doc.created ? c : isoMs(doc.updated);
  return Math.max(Number.isFinite(c) ? c : 0, Number.isFinite(u2) ? u2 : 0);
}
function expiresOf(doc) {
  if (doc.expires === null || doc.expires === void 0) return Infinity;
  const t = isoMs(doc.expires);
  return Number.isFinite(t) ? t : Infinity;
}

// server/src/core/index/query.ts
var WEIGHT_EXACT = 1;
var WEIGHT_SYNONYM = 0.8;
var WEIGHT_PREFIX = 0.6;
var MAX_PREFIX_TERMS = 32;
var MIN_REVERSE_PREFIX = 5;
var MAX_QUERY_TERMS = 31;
function queryWords(text2) {
  const seen = /* @__PURE__ */ new Set();
  const out2 = [];
  for (const t of tokenize(text2)) {
    if (t.whole || t.stop || seen.has(t.term)) continue;
    seen.add(t.term);
    out2.push({ surface: t.surface, term: t.term });
    if (out2.length === MAX_QUERY_TERMS) break;
  }
  return out2;
}
function parseQuery(text2, p, synonyms) {
  return queryWords(text2).map(({ surface, term }) => {
    const variants = [];
    const alternatives = /* @__PURE__ */ new Set([term]);
    const live2 = (id) => id !== void 0 && p.df[id] > 0;
    const exact = p.termIds.get(term);
    if (live2(exact)) variants.push({ terms: [exact], weight: WEIGHT_EXACT });
    if (term.length >= PREFIX_KEY) {
      const ext = (p.prefixBuckets.get(term.slice(0, PREFIX_KEY)) ?? []).filter(
        (id) => id !== exact && p.df[id] > 0 && p.terms[id].startsWith(term)
      );
      ext.sort((a, b) => p.df[b] - p.df[a] || a - b);
      for (const id of ext.slice(0, MAX_PREFIX_TERMS)) {
        variants.push({ terms: [id], weight: WEIGHT_PREFIX });
        alternatives.add(p.terms[id]);
      }
    }
    for (let k = term.length - 1; k >= Math.max(MIN_REVERSE_PREFIX, Math.ceil(term.length * 0.6)); k--) {
      const id = p.termIds.get(term.slice(0, k));
      if (live2(id) && id !== exact && !alternatives.has(p.terms[id])) {
        variants.push({ terms: [id], weight: WEIGHT_PREFIX });
        alternatives.add(p.terms[id]);
      }
    }
    for (const entry of synonyms.get(term) ?? []) {
      if (entry.length === 1 && entry[0] === term) continue;
      const ids2 = entry.map((t) => p.termIds.get(t));
      if (ids2.every(live2)) {
        variants.push({ terms: ids2, weight: WEIGHT_SYNONYM });
        if (entry.length === 1) alternatives.add(entry[0]);
      }
    }
    return { surface, term, variants, alternatives };
  });
}

// server/src/core/index/bm25.ts
var K1 = 1.2;
var B_BODY = 0.75;
var B_SCOPE = 0.3;
var W_BODY = 1;
var W_SCOPE = 2;
var W_ALIAS = 0.5;
var RECENCY_WEIGHT = 0.1;
var COVER_FLOOR = 0.5;
var DAY_MS = 864e5;
function popcount(x) {
  x -= x >>> 1 & 1431655765;
  x = (x & 858993459) + (x >>> 2 & 858993459);
  return (x + (x >>> 4) & 252645135) * 16843009 >>> 24;
}
function passes(w2, slot) {
  const m = w2.meta[slot];
  if ((m & META_ALIVE) === 0 || (m & META_EXPIRES) !== 0 && w2.expires[slot] <= w2.now) return false;
  if (w2.ask === null) return true;
  let st = w2.allowState[slot];
  if (st === 0) {
    st = w2.ask(slot) ? 1 : 2;
    w2.allowState[slot] = st;
  }
  return st === 1;
}
function pseudoTf(w2, packed, slot) {
  const tb = packed & 65535;
  const ts = packed >>> 16 & 255;
  const ta = packed >>> 24;
  const m = w2.meta[slot];
  let f = tb === 0 ? 0 : W_BODY * tb / (1 - B_BODY + w2.cb * (m & 65535));
  if (ts !== 0) f += W_SCOPE * ts / (1 - B_SCOPE + w2.cs * (m >>> 16 & 255));
  if (ta !== 0) f += W_ALIAS;
  return f;
}
function compareCandidates(a, b, recency, idOf) {
  if (a.score !== b.score) return b.score - a.score;
  const ra = recency[a.slot];
  const rb = recency[b.slot];
  if (ra !== rb) return rb - ra;
  const ia = idOf(a.slot);
  const ib = idOf(b.slot);
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}
function ranksBelow(acc, recency, idOf) {
  return (a, b) => {
    const sa = acc[a << 1];
    const sb = acc[b << 1];
    if (sa !== sb) return sa < sb;
    const ra = recency[a];
    const rb = recency[b];
    if (ra !== rb) return ra < rb;
    return idOf(a) > idOf(b);
  };
}
function offerTopK(heap, size2, k, slot, below) {
  if (size2 < k) {
    let j = size2++;
    heap[j] = slot;
    while (j > 0) {
      const parent = j - 1 >> 1;
      if (!below(heap[j], heap[parent])) break;
      const t = heap[j];
      heap[j] = heap[parent];
      heap[parent] = t;
      j = parent;
    }
  } else if (below(heap[0], slot)) {
    heap[0] = slot;
    for (let j = 0; ; ) {
      const l = 2 * j + 1;
      const r = l + 1;
      let m = j;
      if (l < size2 && below(heap[l], heap[m])) m = l;
      if (r < size2 && below(heap[r], heap[m])) m = r;
      if (m === j) break;
      const t = heap[j];
      heap[j] = heap[m];
      heap[m] = t;
      j = m;
    }
  }
  return size2;
}

// server/src/core/index/cursors.ts
var SAFETY = 1 + 1e-9;
var DRIFT = 1.1;
var TermBounds = class {
  constructor(p) {
    this.p = p;
  }
  p;
  fmax = new Float64Array(0);
  scanned = new Int32Array(0);
  cb0 = 0;
  cs0 = 0;
  epoch = -1;
  /** Largest pseudo-frequency of term `t` under normalization (cb, cs). */
  maxF(t, cb, cs) {
    const p = this.p;
    const drift = Math.max(this.cb0 / cb, cb / this.cb0, this.cs0 / cs, cs / this.cs0);
    if (p.epoch !== this.epoch || !(drift <= DRIFT) || this.fmax.length < p.terms.length) {
      if (p.epoch !== this.epoch || !(drift <= DRIFT)) {
        this.fmax = new Float64Array(Math.max(p.terms.length, 64));
        this.scanned = new Int32Array(this.fmax.length);
        this.cb0 = cb;
        this.cs0 = cs;
        this.epoch = p.epoch;
      } else {
        const n = Math.max(p.terms.length, this.fmax.length * 2);
        const f = new Float64Array(n);
        f.set(this.fmax);
        const s2 = new Int32Array(n);
        s2.set(this.scanned);
        this.fmax = f;
        this.scanned = s2;
      }
    }
    const len = p.listLen[t];
    let from = this.scanned[t];
    if (from < len) {
      const list2 = p.lists[t];
      const meta = p.meta;
      let best = this.fmax[t];
      for (; from < len; from++) {
        const e = list2[from];
        const md = meta[e & SLOT_MASK];
        if ((md & META_ALIVE) === 0) continue;
        const f = pseudo(e, md, this.cb0, this.cs0);
        if (f > best) best = f;
      }
      this.fmax[t] = best;
      this.scanned[t] = len;
    }
    return this.fmax[t] * Math.max(1, this.cb0 / cb, this.cs0 / cs) * SAFETY;
  }
};
var AB = 1 - B_BODY;
var AS = 1 - B_SCOPE;
function pseudo(e, md, cb, cs) {
  const tb = e >>> 24 & 31;
  const ts = e >>> 29 & 3;
  const ta = e >>> 31;
  let f = tb === 0 ? 0 : W_BODY * tb / (AB + cb * (md & 65535));
  if (ts !== 0) f += W_SCOPE * ts / (AS + cs * (md >>> 16 & 255));
  if (ta !== 0) f += W_ALIAS;
  return f;
}
function mergeRuns(a, ends) {
  let src = a;
  let dst = new Int32Array(a.length);
  let bounds = [0, ...ends];
  while (bounds.length > 2) {
    const next2 = [0];
    for (let r = 0; r + 1 < bounds.length; r += 2) {
      const lo = bounds[r];
      const mid = bounds[r + 1];
      const hi = r + 2 < bounds.length ? bounds[r + 2] : mid;
      let x = lo;
      let y = mid;
      let o = lo;
      while (x < mid && y < hi) dst[o++] = src[x] <= src[y] ? src[x++] : src[y++];
      while (x < mid) dst[o++] = src[x++];
      while (y < hi) dst[o++] = src[y++];
      next2.push(hi);
    }
    const t = src;
    src = dst;
    dst = t;
    bounds = next2;
  }
  return src;
}
function seek(c, d) {
  const list2 = c.list;
  const len = c.len;
  let pos = c.pos;
  if (pos >= len || (list2[pos] & SLOT_MASK) >= d) return;
  let step = 1;
  let hi = pos + 1;
  while (hi < len && (list2[hi] & SLOT_MASK) < d) {
    pos = hi;
    step <<= 1;
    hi = pos + step;
  }
  if (hi > len) hi = len;
  let lo = pos + 1;
  while (lo < hi) {
    const mid = lo + hi >> 1;
    if ((list2[mid] & SLOT_MASK) < d) lo = mid + 1;
    else hi = mid;
  }
  c.pos = lo;
}
var Scratch = class {
  /** slot -> 1 + its index among the touched slots, 0: untouched */
  idx = new Int32Array(0);
  /** per touched index i and query term q: contrib[i n + q] */
  contrib = new Float64Array(0);
  ensure(slots, need) {
    if (this.idx.length < slots) this.idx = new Int32Array(Math.max(slots, this.idx.length * 2, 64));
    if (this.contrib.length < need) {
      const c = new Float64Array(Math.max(need, this.contrib.length * 2, 256));
      c.set(this.contrib);
      this.contrib = c;
    }
  }
};

// server/src/core/index/maxscore.ts
var SEEDS = 8;
var CONTINUE = 3;
function maxScoreTopK(w2, cursors, k, recency, halfLifeMs, idOf, acc, touched, sc) {
  const n = cursors.length;
  const floor = COVER_FLOOR;
  const rw = RECENCY_WEIGHT;
  const maxBoost = 1 + rw;
  const now = w2.now;
  const ord = cursors.map((_, q) => q).sort((a, b) => cursors[a].len - cursors[b].len || cursors[b].ub - cursors[a].ub || a - b);
  const rest = new Float64Array(n + 1);
  for (let j2 = n - 1; j2 >= 0; j2--) rest[j2] = rest[j2 + 1] + cursors[ord[j2]].ub;
  const restBound = (j2) => rest[j2] * (floor + (1 - floor) * (n - j2) / n) * maxBoost * SAFETY;
  const finalOf = (slot, sum, mask2) => {
    const base = sum * (floor + (1 - floor) * (popcount(mask2) / n));
    return base * (1 + rw * Math.pow(0.5, Math.max(0, now - recency[slot]) / halfLifeMs));
  };
  let nT = 0;
  let j = 0;
  let theta = -Infinity;
  let walked = 0;
  let total = 0;
  for (const c of cursors) total += c.len;
  const runEnds = [];
  while (j < n) {
    const q = ord[j];
    const c = cursors[q];
    sc.ensure(w2.meta.length, (nT + c.len) * n);
    nT = walkRaw(w2, c, q, n, acc, touched, nT, sc);
    runEnds.push(nT);
    j++;
    walked += c.len;
    if (j === n) break;
    if (nT >= k) {
      theta = seedFloor(w2, cursors, ord, j, k, n, acc, touched, nT, sc, finalOf);
      if (theta > restBound(j)) break;
    }
    if ((walked + cursors[ord[j]].len) * CONTINUE <= total) continue;
    for (let t = 0; t < nT; t++) {
      const at2 = touched[t] << 1;
      acc[at2] = 0;
      acc[at2 + 1] = 0;
      sc.idx[touched[t]] = 0;
    }
    sc.contrib.fill(0, 0, nT * n);
    return null;
  }
  const restUb = rest[j];
  const nRest = n - j;
  const { idx, contrib } = sc;
  let kept = nT;
  if (nRest > 0) {
    for (let t = 0; t < nT; t++) {
      const slot = touched[t];
      const at2 = slot << 1;
      if ((acc[at2] + restUb) * (floor + (1 - floor) * (popcount(acc[at2 + 1]) + nRest) / n) * maxBoost * SAFETY < theta) {
        idx[slot] = -idx[slot];
        kept--;
      }
    }
  }
  let sorted = null;
  for (let i = j; i < n; i++) {
    const q = ord[i];
    const c = cursors[q];
    if (c.len <= kept * 8) {
      fill(w2, c, q, n, acc, idx, contrib);
      continue;
    }
    if (sorted === null) {
      sorted = new Int32Array(kept);
      const ends = [];
      let o = 0;
      for (let t = 0, r = 0; t < nT; t++) {
        if (idx[touched[t]] > 0) sorted[o++] = touched[t];
        if (t + 1 === runEnds[r]) {
          ends.push(o);
          r++;
        }
      }
      sorted = mergeRuns(sorted, ends);
    }
    c.pos = 0;
    const bit = 1 << q;
    for (let t = 0; t < kept; t++) {
      const slot = sorted[t];
      const v = probe(w2, c, slot);
      if (v > 0) {
        contrib[(idx[slot] - 1) * n + q] = v;
        acc[(slot << 1) + 1] = acc[(slot << 1) + 1] | bit;
      }
    }
  }
  const heap = new Int32Array(k);
  let size2 = 0;
  const below = ranksBelow(acc, recency, idOf);
  for (let t = 0; t < nT; t++) {
    const slot = touched[t];
    const at2 = slot << 1;
    const ix = idx[slot];
    if (ix < 0) {
      acc[at2] = 0;
      continue;
    }
    const ci = (ix - 1) * n;
    const mask2 = acc[at2 + 1];
    let sum = 0;
    for (let q = 0; q < n; q++) if ((mask2 & 1 << q) !== 0) sum = sum + contrib[ci + q];
    const base = sum * (floor + (1 - floor) * (popcount(mask2) / n));
    if (size2 === k && base * maxBoost < acc[heap[0] << 1] || base * maxBoost < theta) {
      acc[at2] = 0;
      continue;
    }
    acc[at2] = finalOf(slot, sum, mask2);
    size2 = offerTopK(heap, size2, k, slot, below);
  }
  for (let t = 0; t < nT; t++) idx[touched[t]] = 0;
  contrib.fill(0, 0, nT * n);
  return { heap, size: size2, nTouched: nT };
}
function seedFloor(w2, cursors, ord, j, k, n, acc, touched, nT, sc, finalOf) {
  const floor = COVER_FLOOR;
  const key = (slot) => acc[slot << 1] * (floor + (1 - floor) * popcount(acc[(slot << 1) + 1]) / n);
  const cap = k * SEEDS;
  const heap = new Int32Array(cap);
  const keys = new Float64Array(cap);
  let size2 = 0;
  for (let t = 0; t < nT; t++) {
    const slot = touched[t];
    const v = key(slot);
    if (size2 === cap && v <= keys[0]) continue;
    if (size2 < cap) {
      let h = size2++;
      heap[h] = slot;
      keys[h] = v;
      while (h > 0) {
        const p = h - 1 >> 1;
        if (keys[p] <= keys[h]) break;
        swap(keys, heap, p, h);
        h = p;
      }
    } else {
      heap[0] = slot;
      keys[0] = v;
      for (let h = 0; ; ) {
        const l = 2 * h + 1;
        const r = l + 1;
        let m = h;
        if (l < cap && keys[l] < keys[m]) m = l;
        if (r < cap && keys[r] < keys[m]) m = r;
        if (m === h) break;
        swap(keys, heap, m, h);
        h = m;
      }
    }
  }
  const { idx, contrib } = sc;
  const finals = [];
  const extra = new Float64Array(n);
  for (let h = 0; h < size2; h++) {
    const slot = heap[h];
    const ci = (idx[slot] - 1) * n;
    let mask2 = acc[(slot << 1) + 1];
    extra.fill(0);
    for (let i = j; i < n; i++) {
      const q = ord[i];
      const c = cursors[q];
      c.pos = 0;
      const v = probe(w2, c, slot);
      if (v > 0) {
        extra[q] = v;
        mask2 |= 1 << q;
      }
    }
    let sum = 0;
    for (let q = 0; q < n; q++) if ((mask2 & 1 << q) !== 0) sum = sum + (extra[q] > 0 ? extra[q] : contrib[ci + q]);
    finals.push(finalOf(slot, sum, mask2));
  }
  for (let i = j; i < n; i++) cursors[ord[i]].pos = 0;
  finals.sort((a, b) => b - a);
  return finals.length >= k ? finals[k - 1] : -Infinity;
}
function swap(keys, slots, a, b) {
  const x = keys[a];
  keys[a] = keys[b];
  keys[b] = x;
  const y = slots[a];
  slots[a] = slots[b];
  slots[b] = y;
}
function walkRaw(w2, c, q, n, acc, touched, nT, sc) {
  const { meta, expires, now, cb, cs, allowState, ask } = w2;
  const { idx, contrib } = sc;
  const list2 = c.list;
  const len = c.len;
  const scale = c.scale;
  const bit = 1 << q;
  const wb = W_BODY;
  const ws = W_SCOPE;
  const wa = W_ALIAS;
  const ab = AB;
  const as = AS;
  const k1 = K1;
  for (let i = 0; i < len; i++) {
    const e = list2[i];
    const slot = e & 16777215;
    const md = meta[slot];
    if ((md & 16777216) === 0 || (md & 33554432) !== 0 && expires[slot] <= now) continue;
    if (ask !== null) {
      let st = allowState[slot];
      if (st === 0) {
        st = ask(slot) ? 1 : 2;
        allowState[slot] = st;
      }
      if (st !== 1) continue;
    }
    const tb = e >>> 24 & 31;
    const ts = e >>> 29 & 3;
    const ta = e >>> 31;
    let f = tb === 0 ? 0 : wb * tb / (ab + cb * (md & 65535));
    if (ts !== 0) f += ws * ts / (as + cs * (md >>> 16 & 255));
    if (ta !== 0) f += wa;
    const v = scale * f / (k1 + f);
    let ix = idx[slot];
    if (ix === 0) {
      touched[nT++] = slot;
      idx[slot] = ix = nT;
    }
    const at2 = slot << 1;
    acc[at2] = acc[at2] + v;
    acc[at2 + 1] = acc[at2 + 1] | bit;
    contrib[(ix - 1) * n + q] = v;
  }
  return nT;
}
function fill(w2, c, q, n, acc, idx, contrib) {
  const bit = 1 << q;
  const list2 = c.list;
  const { meta, cb, cs } = w2;
  const scale = c.scale;
  const wb = W_BODY;
  const ws = W_SCOPE;
  const wa = W_ALIAS;
  const ab = AB;
  const as = AS;
  const k1 = K1;
  for (let i = 0, len = c.len; i < len; i++) {
    const e = list2[i];
    const slot = e & 16777215;
    const ix = idx[slot];
    if (ix <= 0) continue;
    const md = meta[slot];
    const tb = e >>> 24 & 31;
    const ts = e >>> 29 & 3;
    const ta = e >>> 31;
    let f = tb === 0 ? 0 : wb * tb / (ab + cb * (md & 65535));
    if (ts !== 0) f += ws * ts / (as + cs * (md >>> 16 & 255));
    if (ta !== 0) f += wa;
    contrib[(ix - 1) * n + q] = scale * f / (k1 + f);
    acc[(slot << 1) + 1] = acc[(slot << 1) + 1] | bit;
  }
}
function probe(w2, c, slot) {
  seek(c, slot);
  if (c.pos >= c.len || (c.list[c.pos] & SLOT_MASK) !== slot) return 0;
  const e = c.list[c.pos];
  const md = w2.meta[slot];
  const tb = e >>> 24 & 31;
  const ts = e >>> 29 & 3;
  const ta = e >>> 31;
  let f = tb === 0 ? 0 : W_BODY * tb / (AB + w2.cb * (md & 65535));
  if (ts !== 0) f += W_SCOPE * ts / (AS + w2.cs * (md >>> 16 & 255));
  if (ta !== 0) f += W_ALIAS;
  return c.scale * f / (K1 + f);
}

// server/src/core/index/rank.ts
var Ranker = class {
  constructor(p) {
    this.p = p;
    this.bounds = new TermBounds(p);
  }
  p;
  // per-run scratch, all zero between runs. acc interleaves each slot's score (2s) and coverage
  // mask (2s + 1) so one cache line serves both.
  acc = new Float64Array(0);
  best = new Float64Array(0);
  touched = new Int32Array(0);
  termTouched = new Int32Array(0);
  /** per slot: 0 not asked, 1 allowed, 2 filtered out; valid for (allowKey, allowEpoch) */
  allowState = new Uint8Array(0);
  allowKey = void 0;
  allowEpoch = -1;
  bounds;
  scratch = new Scratch();
  ensure(n) {
    if (this.best.length >= n) return;
    const cap = Math.max(n, this.best.length * 2, 64);
    this.acc = new Float64Array(cap * 2);
    this.best = new Float64Array(cap);
    this.touched = new Int32Array(cap);
    this.termTouched = new Int32Array(cap);
    const allow = new Uint8Array(cap);
    allow.set(this.allowState);
    this.allowState = allow;
  }
  prepareFilter(opts) {
    if (!opts.allow) return;
    const keep = opts.allowKey !== void 0 && opts.allowKey === this.allowKey && this.allowEpoch === this.p.epoch;
    if (!keep) this.allowState.fill(0);
    this.allowKey = opts.allowKey;
    this.allowEpoch = this.p.epoch;
  }
  run(query, opts) {
    const p = this.p;
    if (query.length === 0 || p.live === 0) return [];
    this.ensure(p.slots);
    this.prepareFilter(opts);
    const w2 = {
      meta: p.meta,
      expires: p.expires,
      now: opts.now,
      cb: B_BODY / Math.max(p.sumBody / p.live, 1),
      cs: B_SCOPE / Math.max(p.sumScope / p.live, 1),
      allowState: this.allowState,
      ask: opts.allow ?? null
    };
    const n = p.live;
    const idfOf = (t) => Math.log(1 + (n - p.df[t] + 0.5) / (p.df[t] + 0.5));
    if (!opts.exhaustive && worthPruning(query, p)) return this.runPruned(query, opts, w2, idfOf);
    const { acc, best, touched, termTouched } = this;
    let nTouched = 0;
    for (let q = 0; q < query.length; q++) {
      const variants = query[q].variants;
      const bit = 1 << q;
      if (variants.length === 1 && variants[0].terms.length === 1) {
        const t = variants[0].terms[0];
        nTouched = accumulate(w2, p.lists[t], p.listLen[t], idfOf(t) * variants[0].weight * (K1 + 1), bit, acc, touched, nTouched);
        continue;
      }
      let nTerm = 0;
      for (const v of variants) {
        if (v.terms.length === 1) {
          const t = v.terms[0];
          nTerm = accumulateBest(w2, p.lists[t], p.listLen[t], idfOf(t) * v.weight * (K1 + 1), best, termTouched, nTerm);
        } else {
          nTerm = this.walkAll(w2, v.terms, v.terms.map(idfOf), v.weight, nTerm);
        }
      }
      for (let i = 0; i < nTerm; i++) {
        const slot = termTouched[i];
        const k = slot << 1;
        const m = acc[k + 1];
        if (m === 0) touched[nTouched++] = slot;
        acc[k] = acc[k] + best[slot];
        acc[k + 1] = m | bit;
        best[slot] = 0;
      }
    }
    const out2 = this.select(nTouched, query.length, opts);
    for (let i = 0; i < nTouched; i++) {
      const k = touched[i] << 1;
      acc[k] = 0;
      acc[k + 1] = 0;
    }
    return out2;
  }
  /** The same pool as the exhaustive walk below, through MaxScore (see maxscore.ts). */
  runPruned(query, opts, w2, idfOf) {
    const p = this.p;
    if (opts.pool <= 0) return [];
    const cursors = query.map((qt) => {
      const t = qt.variants[0].terms[0];
      const scale = idfOf(t) * qt.variants[0].weight * (K1 + 1);
      const f = this.bounds.maxF(t, w2.cb, w2.cs);
      return { list: p.lists[t], len: p.listLen[t], pos: 0, scale, ub: scale * f / (K1 + f) };
    });
    const { acc, touched } = this;
    const recency = p.recency;
    const idOf = opts.idOf;
    const top = maxScoreTopK(w2, cursors, opts.pool, recency, opts.halfLifeDays * DAY_MS, idOf, acc, touched, this.scratch);
    if (top === null) return this.run(query, { ...opts, exhaustive: true });
    const out2 = [];
    for (let i = 0; i < top.size; i++) {
      const at2 = top.heap[i] << 1;
      out2.push({ slot: top.heap[i], score: acc[at2], mask: acc[at2 + 1] });
    }
    for (let i = 0; i < top.nTouched; i++) {
      const at2 = touched[i] << 1;
      acc[at2] = 0;
      acc[at2 + 1] = 0;
    }
    return out2.sort((a, b) => compareCandidates(a, b, recency, idOf));
  }
  /** A multi-word synonym: walk the rarest word's list, require and score every word. */
  walkAll(w2, terms, idfs, weight, nTerm) {
    const p = this.p;
    let lead = 0;
    for (let k = 1; k < terms.length; k++) if (p.df[terms[k]] < p.df[terms[lead]]) lead = k;
    const list2 = p.lists[terms[lead]];
    const len = p.listLen[terms[lead]];
    for (let i = 0; i < len; i++) {
      const slot = list2[i] & SLOT_MASK;
      if (!passes(w2, slot)) continue;
      let s2 = 0;
      let k = 0;
      for (; k < terms.length; k++) {
        const packed = k === lead ? postingTf(list2[i]) : p.tfOf(slot, terms[k]);
        if (packed === 0) break;
        const f = pseudoTf(w2, packed, slot);
        s2 += idfs[k] * f * (K1 + 1) / (K1 + f);
      }
      if (k < terms.length) continue;
      s2 *= weight;
      const b = this.best[slot];
      if (b === 0) this.termTouched[nTerm++] = slot;
      if (s2 > b) this.best[slot] = s2;
    }
    return nTerm;
  }
  /**
   * Final first-pass score of each touched slot (written over its BM25 sum), then the top `pool`
   * by (score, recency, id) through a bounded heap of slot numbers: no per-document allocation.
   */
  select(nTouched, nTerms, opts) {
    const { acc, touched } = this;
    const recency = this.p.recency;
    const halfLifeMs = opts.halfLifeDays * DAY_MS;
    const k = Math.min(opts.pool, nTouched);
    if (k <= 0) return [];
    const heap = new Int32Array(k);
    let size2 = 0;
    const idOf = opts.idOf;
    const floor = COVER_FLOOR;
    const rw = RECENCY_WEIGHT;
    const maxBoost = 1 + rw;
    const now = opts.now;
    const below = ranksBelow(acc, recency, idOf);
    for (let i = 0; i < nTouched; i++) {
      const slot = touched[i];
      const at2 = slot << 1;
      const coverage = popcount(acc[at2 + 1]) / nTerms;
      const base = acc[at2] * (floor + (1 - floor) * coverage);
      if (size2 === k && base * maxBoost < acc[heap[0] << 1]) continue;
      const age = Math.max(0, now - recency[slot]);
      acc[at2] = base * (1 + rw * Math.pow(0.5, age / halfLifeMs));
      size2 = offerTopK(heap, size2, k, slot, below);
    }
    const out2 = [];
    for (let i = 0; i < size2; i++) out2.push({ slot: heap[i], score: acc[heap[i] << 1], mask: acc[(heap[i] << 1) + 1] });
    return out2.sort((a, b) => compareCandidates(a, b, recency, idOf));
  }
};
function worthPruning(query, p) {
  if (query.length < 2) return false;
  let min = Infinity;
  let total = 0;
  for (const qt of query) {
    if (qt.variants.length !== 1 || qt.variants[0].terms.length !== 1) return false;
    const len = p.listLen[qt.variants[0].terms[0]];
    if (len < min) min = len;
    total += len;
  }
  return total >= PRUNE_MIN_POSTINGS && min * PRUNE_RATIO <= total - min;
}
var PRUNE_MIN_POSTINGS = 1024;
var PRUNE_RATIO = 4;
function accumulate(w2, list2, len, scale, bit, acc, touched, nTouched) {
  const { meta, expires, now, cb, cs, allowState, ask } = w2;
  const wb = W_BODY;
  const ws = W_SCOPE;
  const wa = W_ALIAS;
  const ab = 1 - B_BODY;
  const as = 1 - B_SCOPE;
  const k1 = K1;
  for (let i = 0; i < len; i++) {
    const e = list2[i];
    const slot = e & 16777215;
    const md = meta[slot];
    if ((md & 16777216) === 0 || (md & 33554432) !== 0 && expires[slot] <= now) continue;
    if (ask !== null) {
      let st = allowState[slot];
      if (st === 0) {
        st = ask(slot) ? 1 : 2;
        allowState[slot] = st;
      }
      if (st !== 1) continue;
    }
    const tb = e >>> 24 & 31;
    const ts = e >>> 29 & 3;
    const ta = e >>> 31;
    let f = tb === 0 ? 0 : wb * tb / (ab + cb * (md & 65535));
    if (ts !== 0) f += ws * ts / (as + cs * (md >>> 16 & 255));
    if (ta !== 0) f += wa;
    const at2 = slot << 1;
    const m = acc[at2 + 1];
    if (m === 0) touched[nTouched++] = slot;
    acc[at2] = acc[at2] + scale * f / (k1 + f);
    acc[at2 + 1] = m | bit;
  }
  return nTouched;
}
function accumulateBest(w2, list2, len, scale, best, termTouched, nTerm) {
  const { meta, expires, now, cb, cs, allowState, ask } = w2;
  const wb = W_BODY;
  const ws = W_SCOPE;
  const wa = W_ALIAS;
  const ab = 1 - B_BODY;
  const as = 1 - B_SCOPE;
  const k1 = K1;
  for (let i = 0; i < len; i++) {
    const e = list2[i];
    const slot = e & 16777215;
    const md = meta[slot];
    if ((md & 16777216) === 0 || (md & 33554432) !== 0 && expires[slot] <= now) continue;
    if (ask !== null) {
      let st = allowState[slot];
      if (st === 0) {
        st = ask(slot) ? 1 : 2;
        allowState[slot] = st;
      }
      if (st !== 1) continue;
    }
    const tb = e >>> 24 & 31;
    const ts = e >>> 29 & 3;
    const ta = e >>> 31;
    let f = tb === 0 ? 0 : wb * tb / (ab + cb * (md & 65535));
    if (ts !== 0) f += ws * ts / (as + cs * (md >>> 16 & 255));
    if (ta !== 0) f += wa;
    const s2 = scale * f / (k1 + f);
    const b = best[slot];
    if (b === 0) termTouched[nTerm++] = slot;
    if (s2 > b) best[slot] = s2;
  }
  return nTerm;
}

// server/src/core/index/snippet.ts
var SNIPPET_MAX = 200;
var ELLIPSIS = "…";
function collapse(s2) {
  return s2.replace(/\s+/g, " ").trim();
}
function makeSnippet(body, matchStart, matchEnd, max = SNIPPET_MAX) {
  const whole = collapse(body);
  if (whole.length <= max) return whole;
  const budget = max - 2;
  let start = 0;
  if (matchStart > 0) {
    const centre = matchStart + Math.max(matchEnd, matchStart) >> 1;
    start = Math.max(0, Math.min(centre - (budget >> 1), body.length - budget));
    if (start > 0 && !/\s/.test(body[start - 1])) {
      let fwd = start;
      while (fwd < body.length && !/\s/.test(body[fwd])) fwd++;
      while (fwd < body.length && /\s/.test(body[fwd])) fwd++;
      if (fwd <= matchStart) start = fwd;
      else while (start > 0 && !/\s/.test(body[start - 1])) start--;
    }
  }
  const prefix = start > 0 && collapse(body.slice(0, start)) !== "" ? ELLIPSIS : "";
  let text2 = collapse(body.slice(start, start + max * 4));
  const room = max - prefix.length;
  if (text2.length > room || start + max * 4 < body.length) {
    const limit = room - 1;
    if (text2.length > limit) {
      let cut = text2.lastIndexOf(" ", limit);
      if (cut <= 0) cut = limit;
      text2 = text2.slice(0, cut).trimEnd();
    }
    text2 += ELLIPSIS;
  }
  return prefix + text2;
}

// server/src/core/index/rerank.ts
var ADJACENCY_WEIGHT = 0.3;
function relevanceOf(coverage) {
  return coverage >= 0.75 ? "high" : coverage >= 0.4 ? "medium" : "low";
}
function scanBody(body, query, adjacency) {
  let matchStart = -1;
  let matchEnd = -1;
  const nq = query.length;
  const maskAt = [];
  scanTokens(body, (term, _surface, pos, start, end, whole, stop) => {
    let m = 0;
    if (!stop) {
      for (let q = 0; q < nq; q++) if (query[q].alternatives.has(term)) m |= 1 << q;
    }
    if (m !== 0 && matchStart < 0) {
      matchStart = start;
      matchEnd = end;
      if (!adjacency) return true;
    }
    if (!whole) maskAt[pos] = m;
    return false;
  });
  let adjacentPairs = 0;
  for (let q = 0; adjacency && q + 1 < nq; q++) {
    const a = 1 << q;
    const b = 1 << q + 1;
    for (let i = 0; i + 1 < maskAt.length; i++) {
      if ((maskAt[i] & a) !== 0 && (maskAt[i + 1] & b) !== 0) {
        adjacentPairs++;
        break;
      }
    }
  }
  return { adjacentPairs, matchStart, matchEnd };
}
function rerank(cands, query, limit) {
  const maxBonus = query.length > 1 ? 1 + ADJACENCY_WEIGHT : 1;
  const cutoff = cands.length > limit ? cands[limit - 1].score : -Infinity;
  const pool2 = cands.filter((c, i) => i < limit || c.score * maxBonus >= cutoff);
  const scored = pool2.map((c) => {
    const pairs = query.length - 1;
    const scan = pairs > 0 && popcount(c.mask) >= 2 ? scanBody(c.doc.body, query, true) : null;
    const bonus = scan ? 1 + ADJACENCY_WEIGHT * scan.adjacentPairs / pairs : 1;
    return { c, scan, score: c.score * bonus };
  });
  scored.sort((x, y) => {
    if (x.score !== y.score) return y.score - x.score;
    if (x.c.recency !== y.c.recency) return y.c.recency - x.c.recency;
    return x.c.doc.id < y.c.doc.id ? -1 : x.c.doc.id > y.c.doc.id ? 1 : 0;
  });
  return scored.slice(0, limit).map(({ c, scan, score }) => {
    const coverage = popcount(c.mask) / query.length;
    const matchTerms = query.filter((_, q) => (c.mask & 1 << q) !== 0).map((t) => t.surface);
    return new LexicalHit(c.doc, Math.round(score * 1e4) / 1e4, relevanceOf(coverage), coverage, matchTerms, scan, query);
  });
}
var LexicalHit = class {
  constructor(doc, score, relevance, coverage, matchTerms, scan, query) {
    this.doc = doc;
    this.score = score;
    this.relevance = relevance;
    this.coverage = coverage;
    this.matchTerms = matchTerms;
    this.scan = scan;
    this.query = query;
  }
  doc;
  score;
  relevance;
  coverage;
  matchTerms;
  scan;
  query;
  made = void 0;
  get snippet() {
    if (this.made === void 0) {
      const at2 = this.scan ?? scanBody(this.doc.body, this.query, false);
      this.made = makeSnippet(this.doc.body, at2.matchStart, at2.matchEnd);
    }
    return this.made;
  }
};

// server/src/core/index/synonyms.ts
var BUILT_IN = `
db database databases
pg postgres postgresql psql
mysql mariadb
mongo mongodb
k8s kubernetes kube
repo repository repositories
config configuration configs cfg conf
auth authentication authn
authz authorization
prod production
dev development
env environment environments
stg staging
admin administrator
api apis endpoint
app application
arg argument args params parameter parameters
async asynchronous
cmd command
cli command-line
ci continuous-integration pipeline
cd continuous-deployment
deps dependencies dependency
dir directory folder
doc docs documentation
err error errors
exec execute
fn function func
impl implementation
info information
init initialize initialization
lib library libraries
msg message messages
num number
perf performance
pkg package packages
pr pull-request
mr merge-request
req request
res response resp
spec specification
src source
str string
sync synchronize synchronization
temp tmp temporary
ts typescript
js javascript
py python
tf terraform
gh github
gl gitlab
ui frontend
fe frontend
var variable variables
vm virtual-machine
js node nodejs
secret credential credentials
jwt token
test tests spec specs
bug defect issue
docker container containers
img image
mem memory
os operating-system
regex regexp
url link
util utility utilities
ver version
log logs logging
`;
function entryTerms(entry) {
  return tokenize(entry).filter((t) => !t.whole && !t.stop).map((t) => t.term);
}
function buildSynonyms(extra = {}) {
  const groups = BUILT_IN.trim().split("\n").map((line) => line.trim().split(/\s+/).map((w2) => w2.replace(/-/g, " ")));
  for (const [term, list2] of Object.entries(extra)) groups.push([term, ...list2]);
  const peers = /* @__PURE__ */ new Map();
  const termsOf = /* @__PURE__ */ new Map();
  for (const g of groups) {
    const keys = [];
    for (const e of g) {
      const terms = entryTerms(e);
      if (terms.length === 0) continue;
      const key = terms.join(" ");
      termsOf.set(key, terms);
      keys.push(key);
    }
    for (const k of keys) {
      let s2 = peers.get(k);
      if (!s2) peers.set(k, s2 = /* @__PURE__ */ new Set());
      for (const o of keys) if (o !== k) s2.add(o);
    }
  }
  const out2 = /* @__PURE__ */ new Map();
  for (const [k, s2] of peers) {
    if (k.includes(" ") || s2.size === 0) continue;
    out2.set(k, [...s2].sort().map((o) => termsOf.get(o)));
  }
  return out2;
}

// server/src/core/index/candidates.ts
var MAX_TERMS = 12;
var MAX_POSTINGS = 2e4;
function candidates(p, terms, limit) {
  if (limit <= 0 || p.live === 0) return [];
  const ids2 = [];
  for (const t of terms) {
    const id = p.termIds.get(t);
    if (id !== void 0 && p.df[id] > 0) ids2.push(id);
  }
  ids2.sort((a, b) => p.df[a] - p.df[b] || a - b);
  if (scratch.length < p.alive.length) scratch = new Float64Array(Math.max(p.alive.length, scratch.length * 2));
  const weight = scratch;
  const touched = [];
  let walked = 0;
  for (const t of ids2.slice(0, MAX_TERMS)) {
    if (walked >= MAX_POSTINGS) break;
    const idf = Math.log(1 + (p.live - p.df[t] + 0.5) / (p.df[t] + 0.5));
    const list2 = p.lists[t];
    const len = p.listLen[t];
    for (let i = 0; i < len && walked < MAX_POSTINGS; i++, walked++) {
      const slot = list2[i] & SLOT_MASK;
      if (p.alive[slot] === 0) continue;
      if (weight[slot] === 0) touched.push(slot);
      weight[slot] = weight[slot] + idf;
    }
  }
  const best = [];
  for (const slot of touched) {
    const w2 = weight[slot];
    if (best.length === limit) {
      const last = best[limit - 1];
      const lw = weight[last];
      if (w2 < lw || w2 === lw && slot > last) continue;
      best.pop();
    }
    let i = best.length;
    while (i > 0) {
      const o = best[i - 1];
      const ow = weight[o];
      if (ow > w2 || ow === w2 && o < slot) break;
      i--;
    }
    best.splice(i, 0, slot);
  }
  for (const slot of touched) weight[slot] = 0;
  return best;
}
var scratch = new Float64Array(0);

// server/src/core/index/searchIndex.ts
var RERANK_EXTRA = 5;
var SearchIndex = class {
  p = new Postings();
  ranker = new Ranker(this.p);
  docs = [];
  /** id -> slot; after a load of unique ids, made from `docs` later (mapIds) or when first needed */
  slotMap = /* @__PURE__ */ new Map();
  /** the slots not yet in slotMap */
  unmapped = null;
  synonyms;
  constructor(opts = {}) {
    this.synonyms = buildSynonyms(opts.synonyms);
  }
  /**
   * A load of a store's records (unique ids) makes no map by id: the first search needs none, and
   * at 200k memories it is ~80 ms of the start. mapIds() makes it in the background; the first
   * upsert, removal or lookup by id before that makes the rest at once.
   */
  get slotOf() {
    if (this.unmapped !== null) {
      this.unmapped.finish();
      this.unmapped = null;
    }
    return this.slotMap;
  }
  /** Makes the map by id a slice at a time, pausing between slices (a server, after its start). */
  async mapIds(pause3, slice = 4096) {
    await this.unmapped?.drain(pause3, slice);
  }
  /** A fresh map of the current docs, made now or (`later`) by mapIds or the first lookup. */
  remap(later2) {
    const map = this.slotMap = /* @__PURE__ */ new Map();
    const docs = this.docs;
    const backlog = new Backlog(docs.length, (s2) => {
      const d = docs[s2];
      if (d !== void 0) map.set(d.id, s2);
    });
    if (!later2) backlog.finish();
    this.unmapped = later2 ? backlog : null;
  }
  get size() {
    return this.slotOf.size;
  }
  has(id) {
    return this.slotOf.has(id);
  }
  get(id) {
    const s2 = this.slotOf.get(id);
    return s2 === void 0 ? void 0 : this.docs[s2];
  }
  *values() {
    for (const s2 of this.slotOf.values()) yield this.docs[s2];
  }
  /**
   * Adds or replaces a document (by id). `isNew`: the caller knows the index holds no document
   * with this id (the store had no record for it). While the map by id is still being made, such
   * a document goes into it directly, without finishing it first (the rest of the map covers the
   * slots before this one, none of them with this id): a memory created right after a big store's
   * start does not wait for the map of every other one.
   */
  upsert(doc, isNew = false) {
    const direct = isNew && this.unmapped !== null;
    if (!direct) this.removeSlot(doc.id);
    if (this.p.needsCompaction()) this.compact();
    const a = analyzeDoc(doc, this.p);
    const slot = this.p.addSlot(a.bodyLen, a.scopeLen, recencyOf(doc), expiresOf(doc));
    this.p.append(slot, a.fwd);
    this.docs[slot] = doc;
    (direct ? this.slotMap : this.slotOf).set(doc.id, slot);
  }
  remove(id) {
    const had = this.removeSlot(id);
    if (had && this.p.needsCompaction()) this.compact();
    return had;
  }
  removeSlot(id) {
    const slot = this.slotOf.get(id);
    if (slot === void 0) return false;
    this.p.kill(slot, analyzeDoc(this.docs[slot], this.p).fwd);
    this.docs[slot] = void 0;
    this.slotOf.delete(id);
    return true;
  }
  compact() {
    const remap = this.p.compact();
    const docs = new Array(this.p.slots);
    for (let s2 = 0; s2 < remap.length; s2++) if (remap[s2] >= 0) docs[remap[s2]] = this.docs[s2];
    this.docs = docs;
    this.remap(false);
  }
  /**
   * Replaces the whole content with `current`. A snapshot entry whose document has the same body
   * and scopes as the current one (`same`) lends its analysis instead of re-tokenizing; anything
   * else is analyzed afresh, and snapshot entries for documents gone from `current` are dropped.
   * A snapshot that fails validation throws (the caller rebuilds without it).
   */
  load(current, snapshot, opts = {}) {
    const p = new Postings();
    const snap = snapshot?.docs ?? [];
    if (snapshot) {
      p.reserve(snap.length, snapshot.terms.length);
      for (const t of snapshot.terms) p.intern(t);
      const nt = snapshot.terms.length;
      for (const e of snap) validateFwd(e.fwd, nt, e.doc.id);
    }
    let cached = null;
    let next2 = 0;
    const entryFor = (doc) => {
      const e = snap[next2];
      if (e !== void 0 && e.doc === doc) {
        next2++;
        return e;
      }
      if (cached === null) {
        cached = /* @__PURE__ */ new Map();
        for (const x of snap) cached.set(x.doc.id, x);
      }
      return cached.get(doc.id);
    };
    const docs = [];
    const fwd = [];
    const arena = new Int32Arena();
    const slotOf = opts.uniqueIds ? null : /* @__PURE__ */ new Map();
    for (const doc of current) {
      if (slotOf !== null && slotOf.has(doc.id)) continue;
      const c = snap.length > 0 ? entryFor(doc) : void 0;
      const a = c && sameContent(c.doc, doc) ? c : analyzeDoc(doc, p, arena);
      const slot = p.addSlot(a.bodyLen, a.scopeLen, recencyOf(doc), expiresOf(doc));
      fwd[slot] = a.fwd;
      docs[slot] = doc;
      slotOf?.set(doc.id, slot);
    }
    p.buildLists(fwd);
    this.p = p;
    this.ranker = new Ranker(p);
    this.docs = docs;
    if (slotOf) {
      this.slotMap = slotOf;
      this.unmapped = null;
    } else this.remap(true);
  }
  snapshot() {
    const fwd = this.p.forwardLists();
    const docs = [];
    for (const [, slot] of this.slotOf) {
      docs.push({ doc: this.docs[slot], fwd: fwd[slot], bodyLen: this.p.bodyLen[slot], scopeLen: this.p.scopeLen[slot] });
    }
    return { terms: this.p.terms.slice(), docs };
  }
  /**
   * The snapshot streamed: the vocabulary now, and the documents (in slot order, the order of
   * values()) with their analysis `chunk` slots at a time, as the index is at this call.
   */
  snapshotStream(chunk) {
    const r = this.p.forwardReader();
    const docs = this.docs.slice(0, r.slots);
    const bodyLen = this.p.bodyLen.slice(0, r.slots);
    const scopeLen = this.p.scopeLen.slice(0, r.slots);
    const terms = this.p.terms.slice();
    function* gen() {
      for (let from = 0; from < r.slots; from += chunk) {
        const to = Math.min(r.slots, from + chunk);
        const fwd = r.read(from, to);
        const part = [];
        for (let s2 = from; s2 < to; s2++) {
          const doc = docs[s2];
          const f = fwd[s2 - from];
          if (doc !== void 0 && f !== void 0 && r.alive[s2]) part.push({ doc, fwd: f, bodyLen: bodyLen[s2], scopeLen: scopeLen[s2] });
        }
        yield part;
      }
    }
    return { terms, docs: gen };
  }
  search(query, opts) {
    const terms = parseQuery(query, this.p, this.synonyms);
    if (terms.length === 0 || opts.limit <= 0) return [];
    const filter = opts.filter;
    const docs = this.docs;
    const cands = this.ranker.run(terms, {
      pool: opts.limit + RERANK_EXTRA,
      now: opts.now ?? Date.now(),
      halfLifeDays: opts.halfLifeDays ?? 30,
      allow: filter ? (slot) => filter(docs[slot]) : void 0,
      allowKey: filter ? opts.filterKey : void 0,
      idOf: (slot) => docs[slot].id,
      exhaustive: opts.exhaustive
    });
    const ranked = cands.map((c) => ({ doc: docs[c.slot], score: c.score, mask: c.mask, recency: this.p.recency[c.slot] }));
    return rerank(ranked, terms, opts.limit);
  }
  /**
   * Ids of indexed memories sharing the rarest content terms of `text`, best first (at most
   * `limit`). For near-duplicate checks: bounded work, never a scan of every memory.
   */
  candidatesFor(text2, limit) {
    return this.candidateDocsFor(text2, limit).map((d) => d.id);
  }
  /** The documents candidatesFor names (the write gates read them without a lookup by id). */
  candidateDocsFor(text2, limit) {
    const terms = /* @__PURE__ */ new Set();
    for (const t of tokenize(text2)) if (!t.stop) terms.add(t.term);
    return candidates(this.p, terms, limit).map((slot) => this.docs[slot]);
  }
};
function sameContent(a, b) {
  if (a === b) return true;
  if (a.body !== b.body || a.scopes.length !== b.scopes.length) return false;
  if (!a.scopes.every((s2, i) => s2 === b.scopes[i])) return false;
  const x = a.aliases ?? [];
  const y = b.aliases ?? [];
  return x.length === y.length && x.every((s2, i) => s2 === y[i]);
}
function validateFwd(fwd, nTerms, id) {
  if (fwd.length % 2 !== 0) throw new Error(`cached index entry for ${id} has an odd length`);
  let prev = -1;
  for (let i = 0; i < fwd.length; i += 2) {
    const t = fwd[i];
    if (t <= prev || t >= nTerms || fwd[i + 1] <= 0) throw new Error(`cached index entry for ${id} is malformed`);
    prev = t;
  }
}

// server/src/core/index/live.ts
var SAVE_SOON_MS = 1e3;
var SAVE_DELAY_MS = 3e4;
var SAVE_AFTER_CHANGES = 1e3;
var SAVE_AFTER_SHARE = 0.05;
var CACHE_CHUNK = 2e3;
var pause = () => new Promise((r) => setImmediate(r));
var EXACT_BELOW = 1e4;
var BULK_GC_MIN = 1e4;
var ADOPTED_GC_MIN = 1e5;
var START_FALLBACK_MS = 1e3;
var text = (v) => {
  if (typeof v !== "string") throw new Error("not text");
  return v;
};
var textOrNull = (v) => v === null ? null : text(v);
function oneOf2(allowed, v) {
  const m = member(allowed, v);
  if (m === void 0) throw new Error("not a known value");
  return m;
}
var revivedOrigins = /* @__PURE__ */ new WeakMap();
var revivedScopes = /* @__PURE__ */ new WeakMap();
function reviveStored(r) {
  const o = r.origin;
  if (typeof o !== "object" || o === null || !Array.isArray(r.scopes) || !Array.isArray(r.extra)) throw new Error("malformed");
  if (typeof r.size !== "number" || typeof r.mtimeMs !== "number" || typeof r.tombstoned !== "boolean") throw new Error("malformed");
  const extra = r.extra.length === 0 ? NO_EXTRA : r.extra.map(text);
  let origin = revivedOrigins.get(o);
  if (origin === void 0) revivedOrigins.set(o, origin = sharedOrigin(textOrNull(o.cwd), textOrNull(o.repo), textOrNull(o.branch), textOrNull(o.worktree_root)));
  let scopes = revivedScopes.get(r.scopes);
  if (scopes === void 0) revivedScopes.set(r.scopes, scopes = sharedScopeList(r.scopes.map(text)));
  const created = text(r.created);
  const updated = text(r.updated);
  const rec = {
    id: text(r.id),
    created,
    updated: updated === created ? created : updated,
    scopes,
    confidence: oneOf2(CONFIDENCES, r.confidence),
    source: oneOf2(SOURCES, r.source),
    category: oneOf2(CATEGORIES, r.category),
    last_verified_at: textOrNull(r.last_verified_at),
    expires: textOrNull(r.expires),
    origin,
    body: text(r.body)
  };
  if (r.aliases !== void 0) {
    if (!Array.isArray(r.aliases)) throw new Error("malformed");
    rec.aliases = r.aliases.map(text);
  }
  if (r.removed !== void 0) {
    rec.removed = text(r.removed);
    rec.removed_reason = text(r.removed_reason);
    rec.removed_session = internOrNull(textOrNull(r.removed_session ?? null));
  }
  if (typeof r.verified_head === "string") rec.verified_head = text(r.verified_head);
  if (Array.isArray(r.merged_from)) rec.merged_from = r.merged_from.map(text);
  if (Array.isArray(r.merging)) rec.merging = r.merging.map(text);
  if (r.tombstoned !== (r.removed !== void 0)) throw new Error("malformed");
  const m = storedMemory(rec, text(r.file), r.size, r.mtimeMs, extra);
  if (r.idAssigned === true) m.idAssigned = true;
  return m;
}
function analyzedOf(cache2) {
  const analyzed = new Uint8Array(cache2.records.length);
  for (const e of cache2.entries) analyzed[e.record] = 1;
  return analyzed;
}
var LiveIndex = class {
  constructor(store, opts) {
    this.store = store;
    this.opts = opts;
    this.ix = new SearchIndex({ synonyms: opts.synonyms });
  }
  store;
  opts;
  ix;
  built = false;
  /** the cache's analysis, kept until the index is built (or to re-save it unbuilt) */
  snapshot;
  freshness = null;
  unsubscribe = null;
  changesSinceSave = 0;
  savedOnce = false;
  closed = false;
  saving = Promise.resolve();
  saveTimer = null;
  /** How the last open went, for tests and the bench: 'cache' | 'partial' | 'rebuilt'. */
  loadedFrom = "rebuilt";
  adopted = false;
  /** resolved by startBackground() */
  started = Promise.resolve();
  /** A server's start from the cache: what the background check counts stale records from, first. */
  countLater = null;
  /** A server started from the cache checks the files behind it; settles when that is done. */
  validated = Promise.resolve();
  /** The index, built now if this is its first use. */
  get index() {
    if (!this.built) this.build();
    return this.ix;
  }
  async open() {
    if (this.opts.watch) {
      if (existsSync2(this.store.dir)) {
        try {
          ensureOwnDirSync(join15(this.store.dir, CACHE_DIR));
        } catch {
        }
      }
      this.freshness = new Freshness(this.store, this.opts.warn);
      this.freshness.start();
    }
    const mode = this.opts.watch ? "background" : this.opts.oneShot === "cache" ? "trust" : "now";
    const stale = await this.loadStore(mode);
    this.loadedFrom = stale === Infinity ? "rebuilt" : stale === 0 ? "cache" : "partial";
    const adopted = this.adopted;
    const bulk = this.store.activeCount >= BULK_GC_MIN;
    const answerWaits = this.store.activeCount < (this.opts.exactBelow ?? EXACT_BELOW);
    if (adopted && mode === "background" && !answerWaits) {
      this.started = new Promise((r) => this.go = r);
      this.fallback = setTimeout(() => this.startBackground(), this.opts.startFallbackMs ?? START_FALLBACK_MS);
    }
    if (this.opts.watch) {
      if (bulk && !adopted) collectGarbage();
      this.build();
      if (bulk && !adopted) collectGarbage();
      void this.started.then(() => this.ix.mapIds(() => this.closed ? Promise.reject(new Error("closed")) : sliceYield())).catch(() => void 0);
    }
    if (stale > 0 && !(adopted && mode === "trust")) this.markDirty(Math.min(stale, SAVE_AFTER_CHANGES));
    this.unsubscribe = this.store.onChange((ch) => this.apply(ch));
    this.freshness?.install();
    if (!this.opts.watch && this.opts.oneShot !== void 0 && this.opts.oneShot !== "every-read") this.store.setFreshness(() => Promise.resolve());
    if (adopted && mode === "background") {
      this.validated = this.validateInBackground(bulk);
      this.store.setValidation(this.validated);
      if (answerWaits) this.freshness?.waitFor(this.validated, Infinity);
    }
  }
  /**
   * Lets the background work of a start from the cache begin (Cairn calls it once the calls it was
   * opened for are answered, Cairn.during): begun earlier, it ran inside the first answer. A
   * LiveIndex nobody starts starts itself after START_FALLBACK_MS.
   */
  startBackground() {
    const go = this.go;
    this.go = null;
    if (this.fallback) clearTimeout(this.fallback);
    this.fallback = null;
    go?.();
  }
  go = null;
  fallback = null;
  async validateInBackground(bulk) {
    const closed = new Error("closed");
    try {
      await this.started;
      await pause();
      if (this.countLater) {
        const { records, analyzed } = this.countLater;
        this.countLater = null;
        const stale = this.staleCount(records, analyzed);
        if (stale > 0) {
          if (this.loadedFrom === "cache") this.loadedFrom = "partial";
          this.markDirty(Math.min(stale, SAVE_AFTER_CHANGES));
        }
      }
      const big = bulk && this.store.activeCount >= ADOPTED_GC_MIN;
      if (big) collectGarbage();
      const changed = await this.store.validate(() => this.closed ? Promise.reject(closed) : sliceYield());
      if (changed > 0) {
        if (this.loadedFrom === "cache") this.loadedFrom = "partial";
        this.markDirty(Math.min(changed, SAVE_AFTER_CHANGES));
      }
      if (big || bulk && changed >= SAVE_AFTER_CHANGES) collectGarbage();
    } catch (err) {
      if (err !== closed) this.opts.warn(`checking the store against the index cache failed: ${err.message}`);
    }
  }
  /**
   * Loads the store, seeded from the cache; keeps the cache's analysis as `snapshot` for build().
   * Returns how many records the cache got wrong (Infinity: no usable cache). A method of its
   * own so that no closure open() leaves behind (the change listener) shares a context with
   * the decoded cache and keeps it alive.
   */
  async loadStore(mode) {
    if (mode === "now") this.store.listAhead();
    const cache2 = readCache(this.store.dir, (why) => this.opts.warn(`index cache ignored (${why}); rebuilding it`), reviveStored);
    const progress = this.opts.progress && ((done, total) => this.opts.progress("loading files", done, total));
    const taken = cache2 !== null && this.store.adopt(cache2.records, { cleanTemps: mode === "background" && cache2.records.length < EXACT_BELOW, uniqueIds: cache2.uniqueIds === true });
    this.adopted = taken && mode !== "now";
    if (taken && mode === "now") await this.store.validate(void 0, progress);
    else if (!taken) await this.store.load(cache2?.records, progress);
    if (!cache2) return Infinity;
    if (this.adopted && mode === "background") this.countLater = { records: cache2.records, analyzed: analyzedOf(cache2) };
    const stale = this.adopted && mode === "trust" ? 0 : this.countLater ? 0 : this.staleCount(cache2.records, analyzedOf(cache2));
    const docs = cache2.entries;
    for (const d of docs) d.doc = cache2.records[d.record];
    this.snapshot = { terms: cache2.terms, docs };
    return stale;
  }
  build() {
    try {
      this.ix.load(this.store.active(), this.snapshot, { uniqueIds: true });
    } catch (err) {
      this.opts.warn(`index cache ignored (${err.message}); rebuilding it`);
      this.ix.load(this.store.active(), void 0, { uniqueIds: true });
      if (this.loadedFrom !== "rebuilt") this.markDirty(SAVE_AFTER_CHANGES);
      this.loadedFrom = "rebuilt";
    }
    this.snapshot = void 0;
    this.built = true;
  }
  /**
   * How many records differ between the cache and the store now (re-read, new or gone), plus
   * active ones the cache holds no index entry for (a cache saved by a command that never searched).
   */
  staleCount(records, analyzed) {
    const { store } = this;
    let reusedActive = 0;
    let reusedTomb = 0;
    let analyzedActive = 0;
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      const w2 = store.whereIs(r);
      if (w2 === 1) {
        reusedActive++;
        if (analyzed[i] === 1) analyzedActive++;
      } else if (w2 === 2) reusedTomb++;
    }
    let tombs = 0;
    for (const _ of store.tombstones()) tombs++;
    const freshActive = store.activeCount - reusedActive;
    const freshTomb = tombs - reusedTomb;
    const unanalyzed = reusedActive - analyzedActive;
    const gone = records.length - reusedActive - reusedTomb;
    return freshActive + freshTomb + unanalyzed + gone;
  }
  apply(ch) {
    if (this.built) {
      if (ch.kind === "upsert" && !ch.mem.tombstoned) this.ix.upsert(ch.mem, ch.prev === void 0);
      else this.ix.remove(ch.kind === "upsert" ? ch.mem.id : ch.prev.id);
    }
    this.freshness?.noteDirs();
    this.markDirty();
  }
  markDirty(changes = 1) {
    this.changesSinceSave += changes;
    if (this.saveTimer !== null || !this.opts.watch || !this.worthSaving()) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.save();
    }, this.loadedFrom === "rebuilt" && !this.savedOnce ? SAVE_SOON_MS : SAVE_DELAY_MS);
    this.saveTimer.unref();
  }
  worthSaving() {
    const size2 = this.store.activeCount;
    return this.changesSinceSave >= Math.min(SAVE_AFTER_CHANGES, Math.max(1, Math.ceil(size2 * SAVE_AFTER_SHARE)));
  }
  /**
   * Writes the cache now (one save at a time; a second call waits for the running one and then
   * saves again only if more changed). Never throws: a cache is an optimization.
   */
  save() {
    this.saving = this.saving.then(() => this.saveNow());
    return this.saving;
  }
  /**
   * What the cache gets: every active record and tombstone, and index entries for the active
   * records the analysis is current for. One record per id (`uniqueIds`): they come from the
   * store's views, which hold one per id, the active and the removed apart. Built index: its
   * snapshot's entries become the cache entries in place (no map from record to position, no
   * second object per memory).
   */
  cacheContent() {
    if (!this.built) {
      const records2 = [...this.store.active(), ...this.store.tombstones()];
      return { records: records2, uniqueIds: true, ...this.entriesFor(records2) };
    }
    const records = [];
    for (const d of this.ix.values()) if (this.store.get(d.id) === d) records.push(d);
    const indexed = records.length;
    for (const m of this.store.active()) if (this.ix.get(m.id) !== m) records.push(m);
    for (const m of this.store.tombstones()) records.push(m);
    const analysis = () => {
      const snap = this.ix.snapshotStream(CACHE_CHUNK);
      let at2 = null;
      let k = 0;
      function* parts() {
        for (const docs of snap.docs()) {
          const entries = [];
          for (const d of docs) {
            let record = k < indexed && records[k] === d.doc ? k : void 0;
            k++;
            if (record === void 0) {
              at2 ??= new Map(records.slice(0, indexed).map((r, i) => [r, i]));
              record = at2.get(d.doc);
            }
            if (record === void 0) continue;
            const e = d;
            e.record = record;
            entries.push(e);
          }
          yield entries;
        }
      }
      return { terms: snap.terms, parts: parts() };
    };
    return { records, uniqueIds: true, analysis };
  }
  /** Index entries for the cache from the loaded cache's still-current ones (index not built). */
  entriesFor(records) {
    const at2 = /* @__PURE__ */ new Map();
    records.forEach((r, i) => {
      if (!r.tombstoned) at2.set(r, i);
    });
    const snap = this.snapshot ?? { terms: [], docs: [] };
    const entries = [];
    for (const d of snap.docs) {
      const record = at2.get(d.doc);
      if (record !== void 0) entries.push({ record, fwd: d.fwd, bodyLen: d.bodyLen, scopeLen: d.scopeLen });
    }
    return { terms: snap.terms, entries };
  }
  async saveNow() {
    if (this.changesSinceSave === 0) return;
    if (!existsSync2(this.store.dir)) return;
    try {
      const content = this.cacheContent();
      const changes = this.changesSinceSave;
      const id = await writeCache(this.store.dir, content, this.closed ? void 0 : pause);
      this.changesSinceSave -= changes;
      this.saveOverview(id, content.records);
      this.savedOnce = true;
      if (this.opts.watch && content.records.length >= BULK_GC_MIN) collectGarbage();
    } catch (err) {
      this.opts.warn(`could not save the index cache: ${err.message}`);
    }
  }
  /**
   * The session-start summary of the cache just written (overviewCache.ts): what a peek at that
   * cache (oneShot 'cache') counts, i.e. its active records, notes left out as adopt() leaves them.
   */
  saveOverview(cacheId, records) {
    try {
      const active = records.filter((m) => !m.tombstoned && this.store.noteRel(m.file) === null);
      const keys = /* @__PURE__ */ new Map();
      const repoKey = (m) => {
        let k = keys.get(m.origin);
        if (k === void 0) keys.set(m.origin, k = originRepoKey(m.origin));
        return k;
      };
      writeOverview(this.store.dir, cacheId, overviewGroups(active, repoKey));
    } catch (err) {
      this.opts.warn(`could not save the overview summary: ${err.message}`);
    }
  }
  async close() {
    this.closed = true;
    this.startBackground();
    await this.validated;
    this.freshness?.stop();
    this.freshness = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (this.worthSaving()) await this.save();
    else await this.saving;
  }
};

// server/src/core/index/fusion.ts
var RRF_K = 20;
var W_LEX = 1;
var W_SEM = 1;
var W_ALT = 0.6;
var LEX_COV = 0.25;
var SEM_BOOST = 0;
var SEM_Z = 0;
var DEFAULT_CALIBRATION = { high: 0.85, medium: 0.6, floor: 0.3 };
var RANK = { low: 0, medium: 1, high: 2 };
var maxRel = (a, b) => RANK[a] >= RANK[b] ? a : b;
function semanticRelevance(sim, c) {
  return sim >= c.high ? "high" : sim >= c.medium ? "medium" : "low";
}
function tiedRanks(xs, key) {
  const out2 = [];
  xs.forEach((x, i) => out2.push(i > 0 && key(xs[i - 1]) === key(x) ? out2[i - 1] : i));
  return out2;
}
function fuse(input) {
  const { calibration: cal } = input;
  const { k: RK, wLex: WL, wSem: WS, wAlt: WA, lexCov: LC, semBoost: SB, semZ: SZ } = { k: RRF_K, wLex: W_LEX, wSem: W_SEM, wAlt: W_ALT, lexCov: LEX_COV, semBoost: SEM_BOOST, semZ: SEM_Z, ...input.params };
  const lexW = (h) => LC + (1 - LC) * h.coverage;
  const semW = (lex) => 1 + SB * (1 - (lex.length > 0 ? Math.max(...lex.map((h) => h.coverage)) : 0));
  const acc = /* @__PURE__ */ new Map();
  const at2 = (doc) => {
    let a = acc.get(doc.id);
    if (!a) acc.set(doc.id, a = { doc, score: 0, main: "low", altHigh: 0, altMedium: 0 });
    return a;
  };
  const semZ = (hits) => {
    if (SZ === 0 || hits.length < 3) return hits.map(() => 1);
    let m = 0;
    for (const h of hits) m += h.sim;
    m /= hits.length;
    let v = 0;
    for (const h of hits) v += (h.sim - m) ** 2;
    const sd = Math.sqrt(v / hits.length) || 1;
    return hits.map((h) => 1 + SZ * Math.max(0, (h.sim - m) / sd));
  };
  const mainSem = semW(input.main.lexical);
  const mainZ = semZ(input.main.semantic);
  const mainLexRank = tiedRanks(input.main.lexical, (h) => h.score);
  const mainSemRank = tiedRanks(input.main.semantic, (h) => h.sim);
  input.main.lexical.forEach((h, i) => {
    const r = mainLexRank[i];
    const a = at2(h.doc);
    a.score += WL * lexW(h) / (RK + r + 1);
    a.main = maxRel(a.main, h.relevance);
    a.lex = h;
  });
  input.main.semantic.forEach((h, i) => {
    const r = mainSemRank[i];
    if (h.sim < cal.floor) return;
    const a = at2(h.doc);
    a.score += WS * mainSem * mainZ[i] / (RK + r + 1);
    a.sim = h.sim;
    a.main = maxRel(a.main, semanticRelevance(h.sim, cal));
  });
  for (const alt of input.alternates) {
    const rel = /* @__PURE__ */ new Map();
    const altSem = semW(alt.lexical);
    const lexRank = tiedRanks(alt.lexical, (h) => h.score);
    const semRank = tiedRanks(alt.semantic, (h) => h.sim);
    const altZ = semZ(alt.semantic);
    alt.lexical.forEach((h, i) => {
      const r = lexRank[i];
      const a = at2(h.doc);
      a.score += WA * WL * lexW(h) / (RK + r + 1);
      rel.set(h.doc.id, maxRel(rel.get(h.doc.id) ?? "low", h.relevance));
      if (!a.altLex || RANK[h.relevance] > RANK[a.altLex.relevance]) a.altLex = h;
    });
    alt.semantic.forEach((h, i) => {
      const r = semRank[i];
      if (h.sim < cal.floor) return;
      const a = at2(h.doc);
      a.score += WA * WS * altSem * altZ[i] / (RK + r + 1);
      rel.set(h.doc.id, maxRel(rel.get(h.doc.id) ?? "low", semanticRelevance(h.sim, cal)));
    });
    for (const [id, r] of rel) {
      const a = acc.get(id);
      if (r === "high") a.altHigh++;
      if (r !== "low") a.altMedium++;
    }
  }
  const ranked = [...acc.values()].sort((x, y) => y.score - x.score || (x.doc.id < y.doc.id ? -1 : x.doc.id > y.doc.id ? 1 : 0));
  return ranked.slice(0, input.limit).map((a) => {
    const alt = a.altMedium > 0 ? "medium" : "low";
    return new FusedResult(a.doc, Math.round(a.score * 1e4) / 1e4, maxRel(a.main, alt), a.lex?.matchTerms ?? [], a.lex ?? a.altLex, a.sim === void 0 ? void 0 : Math.round(a.sim * 1e4) / 1e4);
  });
}
var FusedResult = class {
  constructor(doc, score, relevance, matchTerms, shown2, semantic) {
    this.doc = doc;
    this.score = score;
    this.relevance = relevance;
    this.matchTerms = matchTerms;
    this.shown = shown2;
    this.semantic = semantic;
  }
  doc;
  score;
  relevance;
  matchTerms;
  shown;
  semantic;
  fused = true;
  made = void 0;
  get snippet() {
    return this.made ??= this.shown?.snippet ?? makeSnippet(this.doc.body, -1, -1);
  }
};

// server/src/core/index/calibration.ts
var CALIBRATIONS = [
  ["builtin:", { high: 0.8, medium: 0.6, floor: 0.15, gate: { cos: 0.65, jaccard: 0.25, related: 0.6 } }],
  ["test:", { high: 0.8, medium: 0.6, floor: 0.3, gate: { cos: 0.65, jaccard: 0.25, related: 0.6 } }]
];
var UNKNOWN = { high: 0.85, medium: 0.6, floor: 0.3, gate: { cos: 0.85, jaccard: 0.25, related: 0.7 } };
function calibrationFor(embedderId) {
  for (const [p, c] of CALIBRATIONS) if (embedderId.startsWith(p)) return c;
  return UNKNOWN;
}

// server/src/core/index/semantic.ts
import { existsSync as existsSync3 } from "node:fs";

// server/src/core/index/simd.ts
var u = (n) => {
  const out2 = [];
  do {
    let b = n & 127;
    n >>>= 7;
    if (n !== 0) b |= 128;
    out2.push(b);
  } while (n !== 0);
  return out2;
};
var s = (n) => {
  const out2 = [];
  for (; ; ) {
    const b = n & 127;
    n >>= 7;
    if (n === 0 && (b & 64) === 0 || n === -1 && (b & 64) !== 0) {
      out2.push(b);
      return out2;
    }
    out2.push(b | 128);
  }
};
var vec = (bytes) => [...u(bytes.length), ...bytes];
var section = (id, body) => [id, ...vec(body)];
var I32 = 127;
var V128 = 123;
var get = (i) => [32, ...u(i)];
var set = (i) => [33, ...u(i)];
var tee = (i) => [34, ...u(i)];
var i32c = (n) => [65, ...s(n)];
var ADD = 106;
var MUL = 108;
var SHL = 116;
var LT_U = 73;
var EQZ = 69;
var simd = (op, ...imm) => [253, ...u(op), ...imm];
var mem = (align, offset = 0) => [...u(align), ...u(offset)];
var block = (body) => [2, 64, ...body, 11];
var loop = (body) => [3, 64, ...body, 11];
var brIf = (depth) => [13, ...u(depth)];
var br = (depth) => [12, ...u(depth)];
var forLt = (i, limit, body) => block(loop([...get(i), ...limit, LT_U, EQZ, ...brIf(1), ...body, ...get(i), ...i32c(1), ADD, ...set(i), ...br(0)]));
var V_LOAD = 0;
var V_LOAD8X8_S = 1;
var V_CONST = 12;
var SHUFFLE = 13;
var XOR = 81;
var POPCNT = 98;
var EXTADD_I8_U = 125;
var EXTADD_I16_U = 127;
var I16_ADD = 142;
var I8_ADD = 110;
var I32_EXTRACT = 27;
var EXT_LOW_S = 167;
var EXT_HIGH_S = 168;
var F64_ADD = 240;
var F64_MUL = 242;
var F64_EXTRACT = 33;
var CONVERT_LOW = 254;
var ZERO = simd(V_CONST, ...new Array(16).fill(0));
var I16_EXT_LOW_I8_S = 135;
var I16_EXT_HIGH_I8_S = 136;
var I32_DOT_I16 = 186;
var I32X4_ADD = 174;
var I16_SPLAT = 16;
var I16_SUB = 145;
var I16_LE_U = 52;
var ANY_TRUE = 83;
var SUB = 107;
var LE_U = 77;
var ifThen = (body) => [4, 64, ...body, 11];
function hammingBody() {
  const [codes, q, n, chunks, dist, hist, row2, k, p, d, acc] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const lane = (l) => [...get(acc), ...simd(EXTADD_I16_U), ...simd(I32_EXTRACT, l)];
  return [
    ...get(codes),
    ...set(p),
    ...forLt(row2, get(n), [
      ...ZERO,
      ...set(acc),
      ...i32c(0),
      ...set(k),
      ...forLt(k, get(chunks), [
        ...get(acc),
        ...get(p),
        ...simd(V_LOAD, ...mem(0)),
        ...get(q),
        ...get(k),
        ...i32c(4),
        SHL,
        ADD,
        ...simd(V_LOAD, ...mem(0)),
        ...simd(XOR),
        ...simd(POPCNT),
        ...simd(EXTADD_I8_U),
        ...simd(I16_ADD),
        ...set(acc),
        ...get(p),
        ...i32c(16),
        ADD,
        ...set(p)
      ]),
      ...lane(0),
      ...lane(1),
      ADD,
      ...lane(2),
      ADD,
      ...lane(3),
      ADD,
      ...set(d),
      // dist[row] = d
      ...get(dist),
      ...get(row2),
      ...i32c(1),
      SHL,
      ADD,
      ...get(d),
      59,
      ...mem(1),
      // hist[d]++
      ...get(hist),
      ...get(d),
      ...i32c(2),
      SHL,
      ADD,
      ...tee(k),
      ...get(k),
      40,
      ...mem(2),
      ...i32c(1),
      ADD,
      54,
      ...mem(2)
    ])
  ];
}
function hamming2Body() {
  const [codes, q, n, , dist, hist, row2, p, d, h, q0, q1, t] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const lane = (l) => [...get(t), ...simd(I32_EXTRACT, l)];
  return [
    ...get(codes),
    ...set(p),
    ...get(q),
    ...simd(V_LOAD, ...mem(0)),
    ...set(q0),
    ...get(q),
    ...simd(V_LOAD, ...mem(0, 16)),
    ...set(q1),
    ...forLt(row2, get(n), [
      ...get(p),
      ...simd(V_LOAD, ...mem(0)),
      ...get(q0),
      ...simd(XOR),
      ...simd(POPCNT),
      ...get(p),
      ...simd(V_LOAD, ...mem(0, 16)),
      ...get(q1),
      ...simd(XOR),
      ...simd(POPCNT),
      ...simd(I8_ADD),
      ...simd(EXTADD_I8_U),
      ...simd(EXTADD_I16_U),
      ...set(t),
      ...lane(0),
      ...lane(1),
      ADD,
      ...lane(2),
      ADD,
      ...lane(3),
      ADD,
      ...set(d),
      ...get(dist),
      ...get(row2),
      ...i32c(1),
      SHL,
      ADD,
      ...get(d),
      59,
      ...mem(1),
      ...get(hist),
      ...get(d),
      ...i32c(2),
      SHL,
      ADD,
      ...tee(h),
      ...get(h),
      40,
      ...mem(2),
      ...i32c(1),
      ADD,
      54,
      ...mem(2),
      ...get(p),
      ...i32c(32),
      ADD,
      ...set(p)
    ])
  ];
}
function dotsBody() {
  const [q, data, dim, rows, m, out2, i, j, base, qp, acc, v, w2] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const HIGH = [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];
  const madd = (x) => [
    ...get(acc),
    ...x,
    ...simd(CONVERT_LOW),
    ...get(qp),
    ...simd(V_LOAD, ...mem(0)),
    ...simd(F64_MUL),
    ...simd(F64_ADD),
    ...set(acc),
    ...get(qp),
    ...i32c(16),
    ADD,
    ...set(qp)
  ];
  const four = (src) => [...madd(get(src)), ...madd([...get(src), ...get(src), ...simd(SHUFFLE, ...HIGH)])];
  return [
    ...forLt(i, get(m), [
      // base = data + rows[i] * dim
      ...get(data),
      ...get(rows),
      ...get(i),
      ...i32c(2),
      SHL,
      ADD,
      40,
      ...mem(2),
      ...get(dim),
      MUL,
      ADD,
      ...set(base),
      ...ZERO,
      ...set(acc),
      ...get(q),
      ...set(qp),
      ...i32c(0),
      ...set(j),
      ...block(loop([
        ...get(j),
        ...get(dim),
        LT_U,
        EQZ,
        ...brIf(1),
        ...get(base),
        ...get(j),
        ADD,
        ...simd(V_LOAD8X8_S, ...mem(0)),
        ...tee(v),
        ...simd(EXT_LOW_S),
        ...set(w2),
        ...four(w2),
        ...get(v),
        ...simd(EXT_HIGH_S),
        ...set(w2),
        ...four(w2),
        ...get(j),
        ...i32c(8),
        ADD,
        ...set(j),
        ...br(0)
      ])),
      // out[i] = acc[0] + acc[1]
      ...get(out2),
      ...get(i),
      ...i32c(3),
      SHL,
      ADD,
      ...get(acc),
      ...simd(F64_EXTRACT, 0),
      ...get(acc),
      ...simd(F64_EXTRACT, 1),
      160,
      57,
      ...mem(3)
    ])
  ];
}
function dots16Body() {
  const [q, data, dim, rows, m, out2, i, j, base, qp, acc, v] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  const lane = (l) => [...get(acc), ...simd(I32_EXTRACT, l)];
  return [
    ...forLt(i, get(m), [
      ...get(data),
      ...get(rows),
      ...get(i),
      ...i32c(2),
      SHL,
      ADD,
      40,
      ...mem(2),
      ...get(dim),
      MUL,
      ADD,
      ...set(base),
      ...ZERO,
      ...set(acc),
      ...get(q),
      ...set(qp),
      ...i32c(0),
      ...set(j),
      ...block(loop([
        ...get(j),
        ...get(dim),
        LT_U,
        EQZ,
        ...brIf(1),
        // 16 int8 of the row -> two i16x8, each dotted with 8 i16 of the query into i32x4
        ...get(base),
        ...get(j),
        ADD,
        ...simd(V_LOAD, ...mem(0)),
        ...set(v),
        ...get(acc),
        ...get(v),
        ...simd(I16_EXT_LOW_I8_S),
        ...get(qp),
        ...simd(V_LOAD, ...mem(0)),
        ...simd(I32_DOT_I16),
        ...simd(I32X4_ADD),
        ...get(v),
        ...simd(I16_EXT_HIGH_I8_S),
        ...get(qp),
        ...simd(V_LOAD, ...mem(0, 16)),
        ...simd(I32_DOT_I16),
        ...simd(I32X4_ADD),
        ...set(acc),
        ...get(qp),
        ...i32c(32),
        ADD,
        ...set(qp),
        ...get(j),
        ...i32c(16),
        ADD,
        ...set(j),
        ...br(0)
      ])),
      // out[i] = the four lanes' sum
      ...get(out2),
      ...get(i),
      ...i32c(2),
      SHL,
      ADD,
      ...lane(0),
      ...lane(1),
      ADD,
      ...lane(2),
      ADD,
      ...lane(3),
      ADD,
      54,
      ...mem(2)
    ])
  ];
}
var F32_SPLAT = 19;
var F32_ADD = 228;
var F32_MUL = 230;
var F32_CONVERT_I32_S = 250;
var V_STORE = 11;
function accumBody() {
  const [acc, table, dim, rows, weights, n, i, j, base, p, w2, v, h] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const madd = (x, off) => [
    ...get(p),
    ...get(p),
    ...simd(V_LOAD, ...mem(0, off)),
    ...x,
    ...simd(F32_CONVERT_I32_S),
    ...get(w2),
    ...simd(F32_MUL),
    ...simd(F32_ADD),
    ...simd(V_STORE, ...mem(0, off))
  ];
  return [
    ...forLt(i, get(n), [
      // base = table + rows[i] * dim; w = splat(weights[i])
      ...get(table),
      ...get(rows),
      ...get(i),
      ...i32c(2),
      SHL,
      ADD,
      40,
      ...mem(2),
      ...get(dim),
      MUL,
      ADD,
      ...set(base),
      ...get(weights),
      ...get(i),
      ...i32c(2),
      SHL,
      ADD,
      42,
      ...mem(2),
      ...simd(F32_SPLAT),
      ...set(w2),
      ...i32c(0),
      ...set(j),
      ...block(loop([
        ...get(j),
        ...get(dim),
        LT_U,
        EQZ,
        ...brIf(1),
        ...get(base),
        ...get(j),
        ADD,
        ...simd(V_LOAD, ...mem(0)),
        ...set(v),
        // p = acc + j * 4
        ...get(acc),
        ...get(j),
        ...i32c(2),
        SHL,
        ADD,
        ...set(p),
        ...get(v),
        ...simd(I16_EXT_LOW_I8_S),
        ...set(h),
        ...madd([...get(h), ...simd(EXT_LOW_S)], 0),
        ...madd([...get(h), ...simd(EXT_HIGH_S)], 16),
        ...get(v),
        ...simd(I16_EXT_HIGH_I8_S),
        ...set(h),
        ...madd([...get(h), ...simd(EXT_LOW_S)], 32),
        ...madd([...get(h), ...simd(EXT_HIGH_S)], 48),
        ...get(j),
        ...i32c(16),
        ADD,
        ...set(j),
        ...br(0)
      ]))
    ])
  ];
}
function collectBody() {
  const [dist, n, from, span, cand, r, m, j, d, row2, vf, vs] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  return [
    ...get(from),
    ...simd(I16_SPLAT),
    ...set(vf),
    ...get(span),
    ...simd(I16_SPLAT),
    ...set(vs),
    ...block(loop([
      ...get(r),
      ...get(n),
      LT_U,
      EQZ,
      ...brIf(1),
      // any of dist[r..r+8) in range? (u16 lanes: (d - from) mod 2^16 <= span)
      ...get(dist),
      ...get(r),
      ...i32c(1),
      SHL,
      ADD,
      ...simd(V_LOAD, ...mem(0)),
      ...get(vf),
      ...simd(I16_SUB),
      ...get(vs),
      ...simd(I16_LE_U),
      ...simd(ANY_TRUE),
      ...ifThen([
        ...i32c(0),
        ...set(j),
        ...block(loop([
          ...get(j),
          ...i32c(8),
          LT_U,
          EQZ,
          ...brIf(1),
          ...get(r),
          ...get(j),
          ADD,
          ...tee(row2),
          ...get(n),
          LT_U,
          ...ifThen([
            ...get(dist),
            ...get(row2),
            ...i32c(1),
            SHL,
            ADD,
            47,
            ...mem(1),
            ...set(d),
            ...get(d),
            ...get(from),
            SUB,
            ...get(span),
            LE_U,
            ...ifThen([
              ...get(cand),
              ...get(m),
              ...i32c(2),
              SHL,
              ADD,
              ...get(row2),
              54,
              ...mem(2),
              ...get(m),
              ...i32c(1),
              ADD,
              ...set(m)
            ])
          ]),
          ...get(j),
          ...i32c(1),
          ADD,
          ...set(j),
          ...br(0)
        ]))
      ]),
      ...get(r),
      ...i32c(8),
      ADD,
      ...set(r),
      ...br(0)
    ])),
    ...get(m)
  ];
}
function moduleBytes() {
  const type6 = [96, ...vec([I32, I32, I32, I32, I32, I32]), ...vec([])];
  const type5r = [96, ...vec([I32, I32, I32, I32, I32]), ...vec([I32])];
  const fn = (locals, body) => vec([...u(locals.length), ...locals.flat(), ...body, 11]);
  const bytes = [
    0,
    97,
    115,
    109,
    1,
    0,
    0,
    0,
    ...section(1, [...u(2), ...type6, ...type5r]),
    // imports: env.mem (memory, min 1 page)
    ...section(2, [...u(1), ...vec([..."env"].map((c) => c.charCodeAt(0))), ...vec([..."mem"].map((c) => c.charCodeAt(0))), 2, 0, ...u(1)]),
    ...section(3, [...u(6), 0, 0, 0, 0, 1, 0]),
    ...section(7, [
      ...u(6),
      ...vec([..."hamming"].map((c) => c.charCodeAt(0))),
      0,
      0,
      ...vec([..."dots"].map((c) => c.charCodeAt(0))),
      0,
      1,
      ...vec([..."hamming2"].map((c) => c.charCodeAt(0))),
      0,
      2,
      ...vec([..."dots16"].map((c) => c.charCodeAt(0))),
      0,
      3,
      ...vec([..."collect"].map((c) => c.charCodeAt(0))),
      0,
      4,
      ...vec([..."accum"].map((c) => c.charCodeAt(0))),
      0,
      5
    ]),
    ...section(10, [
      ...u(6),
      ...fn([[4, I32], [1, V128]], hammingBody()),
      ...fn([[4, I32], [3, V128]], dotsBody()),
      ...fn([[4, I32], [3, V128]], hamming2Body()),
      ...fn([[4, I32], [2, V128]], dots16Body()),
      ...fn([[5, I32], [2, V128]], collectBody()),
      ...fn([[4, I32], [3, V128]], accumBody())
    ])
  ];
  return Uint8Array.from(bytes);
}
var wasm = globalThis.WebAssembly;
var compiled;
function simdKernels(bytes) {
  if (compiled === void 0) {
    try {
      const b = moduleBytes();
      compiled = wasm && wasm.validate(b) ? new wasm.Module(b) : null;
    } catch {
      compiled = null;
    }
  }
  if (!wasm || compiled === null || process.env.CAIRN_NO_SIMD === "1") return null;
  const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
  const inst = new wasm.Instance(compiled, { env: { mem: memory } });
  const ex = inst.exports;
  const general = ex.hamming;
  const two = ex.hamming2;
  return {
    memory,
    hamming: (codes, q, n, chunks, dist, hist) => chunks === 2 ? two(codes, q, n, chunks, dist, hist) : general(codes, q, n, chunks, dist, hist),
    dots: ex.dots,
    dots16: ex.dots16,
    collect: ex.collect,
    accum: ex.accum
  };
}

// server/src/core/index/vectorCache.ts
import { closeSync as closeSync5, constants as constants4, fchmodSync as fchmodSync2, fstatSync as fstatSync3, openSync as openSync5, readSync as readSync3, renameSync as renameSync4, rmSync as rmSync6, writeSync as writeSync4 } from "node:fs";
import { join as join16 } from "node:path";
var VECTOR_FILE = "vectors.bin";
var MAGIC2 = "CAIRNVEC";
var FORMAT3 = 2;
function rowFinder(v) {
  const { keyText: t, keyAt } = v;
  const n = keyAt.length - 1;
  let next2 = 0;
  let byKey = null;
  const isAt = (i, id, updated) => {
    const o = keyAt[i];
    return keyAt[i + 1] - 1 - o === id.length + 1 + updated.length && t.startsWith(id, o) && t.charCodeAt(o + id.length) === 9 && t.startsWith(updated, o + id.length + 1);
  };
  return (id, updated) => {
    if (next2 < n && isAt(next2, id, updated)) return next2++;
    if (byKey === null) {
      byKey = /* @__PURE__ */ new Map();
      for (let i2 = 0; i2 < n; i2++) byKey.set(t.slice(keyAt[i2], keyAt[i2 + 1] - 1), i2);
    }
    const i = byKey.get(`${id}	${updated}`);
    if (i !== void 0) next2 = i + 1;
    return i;
  };
}
function vectorCachePath(storeDir) {
  return join16(storeDir, ".cache", VECTOR_FILE);
}
function layoutOf(head, size2) {
  if (size2 < 52 || head.length < 52 || head.toString("latin1", 0, 8) !== MAGIC2) return "not a vector cache";
  const hl = head.readUInt32LE(48);
  if (head.length < 52 + hl) return "truncated";
  let h;
  try {
    h = JSON.parse(head.toString("utf8", 52, 52 + hl));
  } catch {
    return "unreadable header";
  }
  if (h.format !== FORMAT3) return `format ${String(h.format)}, expected ${FORMAT3}`;
  const { embedder, dim, count, keysBytes, codeWords } = h;
  if (typeof embedder !== "string" || !Number.isInteger(dim) || !Number.isInteger(count) || !Number.isInteger(keysBytes) || !Number.isInteger(codeWords)) return "malformed header";
  if (dim < 1 || count < 0 || keysBytes < 0 || codeWords < 0) return "malformed header";
  const n = count;
  const headLen = 52 + hl;
  const pad = (4 - (headLen + keysBytes) % 4) % 4;
  const scalesAt = headLen + keysBytes + pad;
  const rowsAt = scalesAt + n * 4;
  const rowsEnd = rowsAt + n * dim;
  const codesAt = rowsEnd + (4 - rowsEnd % 4) % 4;
  if (size2 !== codesAt + n * codeWords * 4) return "truncated";
  return { embedder, dim, count: n, codeWords, headLen, keysBytes, scalesAt, rowsAt, rowsEnd, codesAt, size: size2 };
}
function keyStarts(keyText, n) {
  const keyAt = new Int32Array(n + 1);
  let found = 0;
  if (n > 0) {
    for (let nl = keyText.indexOf("\n"); nl >= 0 && found < n; nl = keyText.indexOf("\n", nl + 1)) keyAt[++found] = nl + 1;
    keyAt[++found] = keyText.length + 1;
  }
  return found === n ? keyAt : null;
}
var READ_BYTES = 1 << 20;
var ROWS_PER_READ = 4096;
function openVectors(size2, readAt, close) {
  const fixed = Buffer.alloc(52);
  readAt(fixed, 0, Math.min(52, size2));
  const hl = size2 >= 52 ? fixed.readUInt32LE(48) : 0;
  const head = Buffer.alloc(Math.min(size2, 52 + hl));
  readAt(head, 0, head.length);
  const l = layoutOf(head, size2);
  if (typeof l === "string") return l;
  const stored = head.toString("latin1", 8, 48);
  const sum = checksumFor(stored);
  if (sum === null) return "checksum of a kind this Node cannot compute";
  const n = l.count;
  const keyBytes = Buffer.allocUnsafe(l.keysBytes);
  const scales = new Float32Array(n);
  const codes = new Uint32Array(n * l.codeWords);
  const kept = [
    [l.headLen, l.headLen + l.keysBytes, keyBytes],
    [l.scalesAt, l.rowsAt, new Uint8Array(scales.buffer)],
    [l.codesAt, l.size, new Uint8Array(codes.buffer)]
  ];
  const chunk = Buffer.allocUnsafe(Math.min(READ_BYTES, Math.max(1, size2)));
  for (let at2 = 48; at2 < size2; ) {
    const len = readAt(chunk, at2, Math.min(chunk.length, size2 - at2));
    if (len === 0) return "truncated";
    const part = chunk.subarray(0, len);
    sum.update(part);
    for (const [from, to, into] of kept) {
      const a = Math.max(from, at2);
      const b = Math.min(to, at2 + len);
      if (a < b) into.set(part.subarray(a - at2, b - at2), a - from);
    }
    at2 += len;
  }
  if (sum.digest() !== stored) return "checksum mismatch";
  if (!LITTLE_ENDIAN) {
    Buffer.from(scales.buffer).swap32();
    Buffer.from(codes.buffer).swap32();
  }
  const keyText = keyBytes.toString("utf8");
  const keyAt = keyStarts(keyText, n);
  if (keyAt === null) return "key count mismatch";
  const dim = l.dim;
  const block2 = new Int8Array(Math.max(1, Math.min(n, ROWS_PER_READ)) * dim);
  const blockBytes = new Uint8Array(block2.buffer);
  let blockFrom = -1;
  let blockRows = 0;
  return {
    embedder: l.embedder,
    dim,
    count: n,
    codeWords: l.codeWords,
    keyText,
    keyAt,
    scales,
    codes,
    row(i) {
      if (i < 0 || i >= n) throw new RangeError(`no row ${i} in the vector cache`);
      if (blockFrom < 0 || i < blockFrom || i >= blockFrom + blockRows) {
        blockFrom = i - i % ROWS_PER_READ;
        blockRows = Math.min(ROWS_PER_READ, n - blockFrom);
        if (readAt(blockBytes, l.rowsAt + blockFrom * dim, blockRows * dim) !== blockRows * dim) throw new Error("the vector cache shrank while it was read");
      }
      return block2.subarray((i - blockFrom) * dim, (i - blockFrom + 1) * dim);
    },
    close
  };
}
function readVectors(storeDir, warn) {
  if (!isOwnDirSync(join16(storeDir, ".cache"))) return null;
  let fd;
  try {
    fd = openSync5(vectorCachePath(storeDir), constants4.O_RDONLY | constants4.O_NOFOLLOW);
  } catch {
    return null;
  }
  const readAt = (buf, at2, len) => {
    let got = 0;
    while (got < len) {
      const n = readSync3(fd, buf, got, len - got, at2 + got);
      if (n === 0) break;
      got += n;
    }
    return got;
  };
  let opened;
  try {
    opened = openVectors(fstatSync3(fd).size, readAt, () => closeSync5(fd));
  } catch (err) {
    opened = err.message;
  }
  if (typeof opened !== "string") return opened;
  closeSync5(fd);
  warn(opened);
  return null;
}
function copyRowsFrom(a, at2, from, to, out2) {
  const { dim, codeWords: cw } = a;
  const data = Buffer.from(a.rows.buffer, a.rows.byteOffset, a.rows.byteLength);
  for (let i = from; i < to; i++) {
    const r = at2(i);
    const k = i - from;
    out2.scales?.writeFloatLE(a.scales[r], k * 4);
    if (out2.data) data.copy(out2.data, k * dim, r * dim, (r + 1) * dim);
    if (out2.codes) for (let w2 = 0; w2 < cw; w2++) out2.codes.writeUInt32LE(a.codes[r * cw + w2], (k * cw + w2) * 4);
  }
}
var WRITE_ROWS = 4096;
async function writeVectorSource(storeDir, v) {
  ensureOwnDirSync(join16(storeDir, ".cache"));
  const target = vectorCachePath(storeDir);
  const count = v.count;
  let keysBytes = Math.max(0, count - 1);
  for (let i = 0; i < count; i++) keysBytes += Buffer.byteLength(v.key(i), "utf8");
  const header = Buffer.from(JSON.stringify({ format: FORMAT3, embedder: v.embedder, dim: v.dim, count, keysBytes, codeWords: v.codeWords }), "utf8");
  const headLen = 8 + 40 + 4 + header.length;
  const pad = (4 - (headLen + keysBytes) % 4) % 4;
  const rowsEnd = headLen + keysBytes + pad + count * 4 + count * v.dim;
  const pad2 = (4 - rowsEnd % 4) % 4;
  const sum = newChecksum();
  const tmp = tempPathFor(target);
  const fd = openSync5(tmp, "wx", FILE_MODE);
  let pos = 0;
  const put = (b, hashed = true) => {
    if (hashed) sum.update(b);
    for (let at2 = 0; at2 < b.length; ) at2 += writeSync4(fd, b, at2, b.length - at2, pos + at2);
    pos += b.length;
  };
  try {
    const head = Buffer.alloc(52);
    head.write(MAGIC2, 0, "latin1");
    head.writeUInt32LE(header.length, 48);
    put(head.subarray(0, 48), false);
    put(head.subarray(48));
    put(header);
    let keyed = 0;
    for (let from = 0; from < count; from += WRITE_ROWS) {
      const to = Math.min(count, from + WRITE_ROWS);
      const part = [];
      for (let i = from; i < to; i++) part.push(v.key(i));
      const bytes = Buffer.from((from > 0 ? "\n" : "") + part.join("\n"), "utf8");
      keyed += bytes.length;
      put(bytes);
    }
    if (keyed !== keysBytes) throw new Error("a vector key changed while the cache was written");
    put(Buffer.alloc(pad));
    const chunk = Buffer.allocUnsafe(WRITE_ROWS * Math.max(4, v.dim, v.codeWords * 4));
    for (let from = 0; from < count; from += WRITE_ROWS) {
      const to = Math.min(count, from + WRITE_ROWS);
      v.copyRows(from, to, { scales: chunk });
      put(chunk.subarray(0, (to - from) * 4));
    }
    for (let from = 0; from < count; from += WRITE_ROWS) {
      const to = Math.min(count, from + WRITE_ROWS);
      v.copyRows(from, to, { data: chunk });
      put(chunk.subarray(0, (to - from) * v.dim));
    }
    put(Buffer.alloc(pad2));
    const cb = v.codeWords * 4;
    for (let from = 0; from < count && cb > 0; from += WRITE_ROWS) {
      const to = Math.min(count, from + WRITE_ROWS);
      v.copyRows(from, to, { codes: chunk });
      put(chunk.subarray(0, (to - from) * cb));
    }
    const digest = Buffer.from(sum.digest(), "latin1");
    for (let at2 = 0; at2 < digest.length; ) at2 += writeSync4(fd, digest, at2, digest.length - at2, 8 + at2);
    fchmodSync2(fd, FILE_MODE);
    await fsyncFd(fd);
  } catch (err) {
    try {
      closeSync5(fd);
    } catch {
    }
    rmSync6(tmp, { force: true });
    throw err;
  }
  closeSync5(fd);
  try {
    renameSync4(tmp, target);
  } catch (err) {
    rmSync6(tmp, { force: true });
    throw err;
  }
  await fsyncDir(join16(storeDir, ".cache"));
}

// server/src/core/index/vectors.ts
function embedText(doc) {
  const scopes = doc.scopes.map((s2) => s2.replace(/[:_-]+/g, " ")).join(", ");
  const aliases = doc.aliases && doc.aliases.length > 0 ? `
${doc.aliases.join(", ")}` : "";
  return `${doc.body}
${scopes}${aliases}`;
}
var vectorKey = (d) => `${d.id}	${d.updated}`;
var VectorIndex = class {
  constructor(embedderId, dim, capacity = 64) {
    this.embedderId = embedderId;
    this.dim = dim;
    this.data = new Int8Array(capacity * dim);
    this.scale = new Float32Array(capacity);
    this.expires = new Float64Array(capacity);
    this.rot = rotationFor(dim);
    this.words = this.rot.size >>> 5;
    this.codes = new Uint32Array(capacity * this.words);
    this.dist = new Uint16Array(capacity);
    if (dim % 8 === 0 && this.words % 4 === 0) this.simd = simdSpace(capacity, dim, this.words, null, this);
  }
  embedderId;
  dim;
  data;
  scale;
  expires;
  /** sign codes, `words` uint32 per row */
  codes;
  words;
  rot;
  /** per-search scratch: Hamming distance per row */
  dist;
  /** The WebAssembly SIMD kernels (simd.ts) and their memory, which then holds data, codes and the scratch; null: JS loops. */
  simd = null;
  docs = [];
  rowOf = /* @__PURE__ */ new Map();
  free = [];
  rows = 0;
  get size() {
    return this.rowOf.size;
  }
  /** Rows it holds room for before it grows (a copy of every row into a memory twice the size). */
  get capacity() {
    return this.scale.length;
  }
  /** The doc whose vector is held for `id`, if any (compare it with the store's to know it is current). */
  docOf(id) {
    const r = this.rowOf.get(id);
    return r === void 0 ? void 0 : this.docs[r];
  }
  has(doc) {
    const d = this.docOf(doc.id);
    return d !== void 0 && (d === doc || vectorKey(d) === vectorKey(doc));
  }
  *entries() {
    for (const row2 of this.rowOf.values()) yield { doc: this.docs[row2], row: row2 };
  }
  grow(need) {
    const cap = this.scale.length;
    if (need <= cap) return;
    const next2 = Math.max(need, cap * 2);
    const s2 = new Float32Array(next2);
    s2.set(this.scale);
    this.scale = s2;
    const e = new Float64Array(next2);
    e.set(this.expires);
    this.expires = e;
    if (this.simd) {
      this.simd = simdSpace(next2, this.dim, this.words, this.simd, this);
      if (this.simd) return;
    }
    const d = new Int8Array(next2 * this.dim);
    d.set(this.data);
    this.data = d;
    const c = new Uint32Array(next2 * this.words);
    c.set(this.codes);
    this.codes = c;
    this.dist = new Uint16Array(next2);
  }
  /** Points data/codes/dist at the SIMD memory's regions (simdSpace calls it after (re)allocating). */
  adoptSpace(data, codes, dist) {
    this.data = data;
    this.codes = codes;
    this.dist = dist;
  }
  /** Stores `vec` (unit length, `dim` floats) for `doc`, replacing any vector for its id. */
  set(doc, vec2) {
    if (vec2.length !== this.dim) throw new Error(`vector for ${doc.id} has ${vec2.length} dimensions, expected ${this.dim}`);
    let row2 = this.rowOf.get(doc.id);
    if (row2 === void 0) {
      row2 = this.free.pop() ?? this.rows++;
      this.grow(row2 + 1);
      this.rowOf.set(doc.id, row2);
    }
    let max = 0;
    for (let i = 0; i < vec2.length; i++) max = Math.max(max, Math.abs(vec2[i]));
    const q = max > 0 ? 127 / max : 0;
    const base = row2 * this.dim;
    for (let i = 0; i < vec2.length; i++) this.data[base + i] = Math.round(vec2[i] * q);
    this.scale[row2] = max > 0 ? max / 127 : 0;
    signCode(this.rot, this.data.subarray(base, base + this.dim), this.codes, row2 * this.words);
    this.expires[row2] = expiresOf(doc);
    this.docs[row2] = doc;
  }
  /** Stores an already quantised row (from the vector cache), with its sign code when the cache has it. */
  setRaw(doc, row8, scale, code) {
    let row2 = this.rowOf.get(doc.id);
    if (row2 === void 0) {
      row2 = this.free.pop() ?? this.rows++;
      this.grow(row2 + 1);
      this.rowOf.set(doc.id, row2);
    }
    this.data.set(row8, row2 * this.dim);
    this.scale[row2] = scale;
    if (code && code.length === this.words) this.codes.set(code, row2 * this.words);
    else signCode(this.rot, row8, this.codes, row2 * this.words);
    this.expires[row2] = expiresOf(doc);
    this.docs[row2] = doc;
  }
  /** Uint32 words per sign code. */
  get codeWords() {
    return this.words;
  }
  /** For the cache save: rows[from..to)'s scales, values and codes into the outputs (vectorCache.ts), no object per row. */
  copyRows(rows, from, to, out2) {
    copyRowsFrom({ dim: this.dim, codeWords: this.words, scales: this.scale, rows: this.data, codes: this.codes }, (i) => rows[i], from, to, out2);
  }
  /** Points the row at a newer record object with the same content (no re-embedding). */
  retarget(doc) {
    const row2 = this.rowOf.get(doc.id);
    if (row2 === void 0) return;
    this.docs[row2] = doc;
    this.expires[row2] = expiresOf(doc);
  }
  remove(id) {
    const row2 = this.rowOf.get(id);
    if (row2 === void 0) return false;
    this.rowOf.delete(id);
    this.docs[row2] = void 0;
    this.scale[row2] = 0;
    this.free.push(row2);
    return true;
  }
  /** Cosine of `q` with the stored vector of `id` (null when none). */
  similarity(q, id) {
    const row2 = this.rowOf.get(id);
    return row2 === void 0 ? null : this.dotRow(q, row2);
  }
  dotRow(q, row2) {
    const d = this.data;
    const dim = this.dim;
    const base = row2 * dim;
    let s2 = 0;
    for (let i = 0; i < dim; i++) s2 += q[i] * d[base + i];
    return s2 * this.scale[row2];
  }
  /**
   * The `k` rows most similar to `q` (unit length), best first, among those `allow` accepts and
   * not expired at `now`: exact below EXACT_MAX live rows, else approximate (sign codes, then
   * exact rescoring of the closest candidates; see the top of this file).
   */
  search(q, k, opts = {}) {
    if (q.length !== this.dim || k <= 0 || this.rowOf.size === 0) return [];
    return this.rowOf.size <= EXACT_MAX ? this.searchAll(q, k, opts) : this.searchApprox(q, k, opts);
  }
  /** Every live row, ranked by the int16 kernel where there is one and the kept few recomputed exactly: the same hits as searchExact. */
  searchAll(q, k, opts) {
    const sp = this.simd;
    if (!sp || !sp.q16) return this.searchExact(q, k, opts);
    const pre = this.preTop(k, opts);
    const now = opts.now ?? Date.now();
    this.setQuery16(sp, q);
    for (let from = 0; from < this.rows; from += SIMD_BATCH) {
      const m = Math.min(SIMD_BATCH, this.rows - from);
      for (let i = 0; i < m; i++) sp.cand[i] = from + i;
      this.preScoreBatch(sp, pre, m, now, opts.allow);
    }
    return this.exactOf(sp, q, pre, k, opts);
  }
  /**
   * The candidate list of the two-stage rescoring: k + PRE_EXTRA rows by the int16 kernel's
   * cosine, whose error (~1e-4) is far below the gap PRE_EXTRA rows make; its floor a little under
   * minSim so a row at the threshold is decided by the exact cosine.
   */
  preTop(k, opts) {
    return new TopK(k + PRE_EXTRA, opts.minSim === void 0 ? -Infinity : opts.minSim - PRE_MARGIN);
  }
  setQuery16(sp, q) {
    const q16 = sp.q16;
    let mx = 0;
    for (let i = 0; i < q.length; i++) {
      const a = Math.abs(q[i]);
      if (a > mx) mx = a;
    }
    const s2 = mx > 0 ? 32767 / mx : 0;
    for (let i = 0; i < q.length; i++) q16[i] = Math.round(q[i] * s2);
    sp.qInv = s2 > 0 ? 1 / s2 : 0;
    sp.qf.set(q);
  }
  /** Scores the m rows listed in sp.cand with the int16 kernel and offers them to `pre`. */
  preScoreBatch(sp, pre, m, now, allow, off = 0) {
    sp.k.dots16(sp.q16At, sp.dataAt, this.dim, sp.candAt + off * 4, m, sp.out32At);
    const out2 = sp.out32;
    const cand = sp.cand;
    const scale = this.scale;
    const inv = sp.qInv;
    for (let i = 0; i < m; i++) {
      const row2 = cand[off + i];
      const sc = scale[row2];
      if (sc === 0) continue;
      const s2 = out2[i] * inv * sc;
      if (!pre.wouldTake(s2)) continue;
      if (this.expires[row2] <= now) continue;
      if (allow && !allow(this.docs[row2])) continue;
      pre.add(row2, s2);
    }
  }
  /** The rows `pre` kept, rescored exactly (f64 kernel): the k best as searchExact would give them. */
  exactOf(sp, q, pre, k, opts) {
    const top = new TopK(k, opts.minSim ?? -Infinity);
    const m = pre.copyRows(sp.cand);
    sp.qf.set(q);
    sp.k.dots(sp.qfAt, sp.dataAt, this.dim, sp.candAt, m, sp.outAt);
    for (let i = 0; i < m; i++) {
      const row2 = sp.cand[i];
      const s2 = sp.out[i] * this.scale[row2];
      if (top.wouldTake(s2)) top.add(row2, s2);
    }
    return top.hits(this.docs);
  }
  /** Every live row scored exactly (the reference the approximate search is measured against). */
  searchExact(q, k, opts = {}) {
    if (q.length !== this.dim || k <= 0 || this.rowOf.size === 0) return [];
    const top = new TopK(k, opts.minSim ?? -Infinity);
    const now = opts.now ?? Date.now();
    const sp = this.simd;
    if (sp) {
      sp.qf.set(q);
      for (let from = 0; from < this.rows; from += SIMD_BATCH) {
        const m = Math.min(SIMD_BATCH, this.rows - from);
        for (let i = 0; i < m; i++) sp.cand[i] = from + i;
        this.rescoreBatch(sp, top, m, now, opts.allow);
      }
    } else for (let row2 = 0; row2 < this.rows; row2++) this.consider(top, q, row2, now, opts.allow);
    return top.hits(this.docs);
  }
  /** Scores the m rows listed in sp.cand with the SIMD kernel and offers them to `top`. */
  rescoreBatch(sp, top, m, now, allow) {
    sp.k.dots(sp.qfAt, sp.dataAt, this.dim, sp.candAt, m, sp.outAt);
    const out2 = sp.out;
    const cand = sp.cand;
    const scale = this.scale;
    for (let i = 0; i < m; i++) {
      const row2 = cand[i];
      const sc = scale[row2];
      if (sc === 0) continue;
      const s2 = out2[i] * sc;
      if (!top.wouldTake(s2)) continue;
      if (this.expires[row2] <= now) continue;
      if (allow && !allow(this.docs[row2])) continue;
      top.add(row2, s2);
    }
  }
  /** Candidates by Hamming distance of sign codes, rescored exactly; widened until k pass the filters or every row was seen. */
  searchApprox(q, k, opts = {}) {
    if (q.length !== this.dim || k <= 0 || this.rowOf.size === 0) return [];
    const W = this.words;
    const sp = this.simd;
    const qc = sp ? sp.qc : new Uint32Array(W);
    signCode(this.rot, q, qc, 0);
    const codes = this.codes;
    const scale = this.scale;
    const dist = this.dist;
    const hist = sp ? sp.hist.fill(0) : new Int32Array(this.rot.size + 2);
    const FREE = this.rot.size + 1;
    const n = this.rows;
    if (sp) {
      sp.k.hamming(sp.codesAt, sp.qcAt, n, W >>> 2, sp.distAt, sp.histAt);
      for (const row2 of this.free) {
        hist[dist[row2]]--;
        dist[row2] = FREE;
      }
      if (sp.q16) this.setQuery16(sp, q);
      else sp.qf.set(q);
    } else if (W === 8) {
      const q0 = qc[0], q1 = qc[1], q2 = qc[2], q3 = qc[3], q4 = qc[4], q5 = qc[5], q6 = qc[6], q7 = qc[7];
      for (let row2 = 0, b = 0; row2 < n; row2++, b += 8) {
        if (scale[row2] === 0) {
          dist[row2] = FREE;
          continue;
        }
        let x = codes[b] ^ q0;
        let d = POP16[x & 65535] + POP16[x >>> 16];
        x = codes[b + 1] ^ q1;
        d += POP16[x & 65535] + POP16[x >>> 16];
        x = codes[b + 2] ^ q2;
        d += POP16[x & 65535] + POP16[x >>> 16];
        x = codes[b + 3] ^ q3;
        d += POP16[x & 65535] + POP16[x >>> 16];
        x = codes[b + 4] ^ q4;
        d += POP16[x & 65535] + POP16[x >>> 16];
        x = codes[b + 5] ^ q5;
        d += POP16[x & 65535] + POP16[x >>> 16];
        x = codes[b + 6] ^ q6;
        d += POP16[x & 65535] + POP16[x >>> 16];
        x = codes[b + 7] ^ q7;
        d += POP16[x & 65535] + POP16[x >>> 16];
        dist[row2] = d;
        hist[d]++;
      }
    } else {
      for (let row2 = 0, b = 0; row2 < n; row2++, b += W) {
        if (scale[row2] === 0) {
          dist[row2] = FREE;
          continue;
        }
        let d = 0;
        for (let w2 = 0; w2 < W; w2++) {
          const x = codes[b + w2] ^ qc[w2];
          d += POP16[x & 65535] + POP16[x >>> 16];
        }
        dist[row2] = d;
        hist[d]++;
      }
    }
    const fast = sp !== null && sp.q16 !== null;
    const top = fast ? this.preTop(k, opts) : new TopK(k, opts.minSim ?? -Infinity);
    const now = opts.now ?? Date.now();
    const want = rescoreCount(this.rowOf.size);
    let lo = -1;
    let taken = 0;
    let need = want;
    while (lo < this.rot.size) {
      let hi = lo;
      while (hi < this.rot.size && taken < need) taken += hist[++hi];
      if (fast) {
        if (hi > lo) {
          const m = sp.k.collect(sp.distAt, n, lo + 1, hi - lo - 1, sp.candAt);
          for (let off = 0; off < m; off += SIMD_BATCH) this.preScoreBatch(sp, top, Math.min(SIMD_BATCH, m - off), now, opts.allow, off);
        }
      } else if (sp) {
        let m = 0;
        const cand = sp.cand;
        const from = lo + 1;
        const span = hi - from;
        for (let row2 = 0; row2 < n; row2++) {
          if (dist[row2] - from >>> 0 <= span) {
            cand[m++] = row2;
            if (m === SIMD_BATCH) {
              this.rescoreBatch(sp, top, m, now, opts.allow);
              m = 0;
            }
          }
        }
        if (m > 0) this.rescoreBatch(sp, top, m, now, opts.allow);
      } else {
        for (let row2 = 0; row2 < n; row2++) {
          const d = dist[row2];
          if (d > lo && d <= hi) this.consider(top, q, row2, now, opts.allow);
        }
      }
      lo = hi;
      if (top.size >= k) break;
      need = taken + want;
    }
    return fast ? this.exactOf(sp, q, top, k, opts) : top.hits(this.docs);
  }
  consider(top, q, row2, now, allow) {
    const sc = this.scale[row2];
    if (sc === 0) return;
    const d = this.data;
    const dim = this.dim;
    const base = row2 * dim;
    let s2 = 0;
    for (let i = 0; i < dim; i++) s2 += q[i] * d[base + i];
    s2 *= sc;
    if (!top.wouldTake(s2)) return;
    if (this.expires[row2] <= now) return;
    if (allow && !allow(this.docs[row2])) return;
    top.add(row2, s2);
  }
};
var SIMD_BATCH = 2048;
var PRE_EXTRA = 16;
var PRE_MARGIN = 1e-3;
function simdSpace(capacity, dim, words, prev, ix) {
  const a16 = (x) => x + 15 & ~15;
  let at2 = 0;
  const place = (bytes) => {
    const p = at2;
    at2 = a16(at2 + bytes);
    return p;
  };
  const qcAt = place(words * 4);
  const qfAt = place(dim * 8);
  const q16At = place(dim * 2);
  const out32At = place(SIMD_BATCH * 4);
  const histAt = place((words * 32 + 2) * 4);
  const candCap = Math.max(SIMD_BATCH, capacity);
  const candAt = place(candCap * 4);
  const outAt = place(SIMD_BATCH * 8);
  const distAt = place(capacity * 2);
  const codesAt = place(capacity * words * 4);
  const dataAt = place(capacity * dim);
  const k = simdKernels(at2);
  if (!k) return null;
  const buf = k.memory.buffer;
  const sp = {
    k,
    data: new Int8Array(buf, dataAt, capacity * dim),
    dataAt,
    codes: new Uint32Array(buf, codesAt, capacity * words),
    codesAt,
    dist: new Uint16Array(buf, distAt, capacity),
    distAt,
    hist: new Int32Array(buf, histAt, words * 32 + 2),
    histAt,
    qc: new Uint32Array(buf, qcAt, words),
    qcAt,
    qf: new Float64Array(buf, qfAt, dim),
    qfAt,
    q16: dim % 16 === 0 ? new Int16Array(buf, q16At, dim) : null,
    q16At,
    qInv: 0,
    out32: new Int32Array(buf, out32At, SIMD_BATCH),
    out32At,
    cand: new Int32Array(buf, candAt, candCap),
    candAt,
    out: new Float64Array(buf, outAt, SIMD_BATCH),
    outAt
  };
  if (prev) {
    sp.data.set(prev.data);
    sp.codes.set(prev.codes);
  }
  ix.adoptSpace(sp.data, sp.codes, sp.dist);
  return sp;
}
var EXACT_MAX = 4096;
function rescoreCount(n) {
  return Math.max(1e3, Math.ceil(1e3 * Math.sqrt(n / 5e4)));
}
var TopK = class {
  constructor(k, minSim) {
    this.k = k;
    this.minSim = minSim;
    this.rows = new Int32Array(k);
    this.sims = new Float64Array(k).fill(-Infinity);
    this.worst = minSim;
  }
  k;
  minSim;
  rows;
  sims;
  size = 0;
  worst;
  wouldTake(s2) {
    return !(s2 < this.worst || this.size === this.k && s2 === this.worst);
  }
  add(row2, s2) {
    let j = this.size < this.k ? this.size++ : this.k - 1;
    while (j > 0 && this.sims[j - 1] < s2) {
      this.sims[j] = this.sims[j - 1];
      this.rows[j] = this.rows[j - 1];
      j--;
    }
    this.sims[j] = s2;
    this.rows[j] = row2;
    if (this.size === this.k) this.worst = Math.max(this.minSim, this.sims[this.k - 1]);
  }
  /** Writes the kept rows to `out` (from 0); returns how many. */
  copyRows(out2) {
    out2.set(this.rows.subarray(0, this.size));
    return this.size;
  }
  hits(docs) {
    const out2 = [];
    for (let i = 0; i < this.size; i++) out2.push({ doc: docs[this.rows[i]], sim: this.sims[i] });
    return out2;
  }
};
var POP16 = (() => {
  const t = new Uint8Array(65536);
  for (let i = 1; i < 65536; i++) t[i] = (i & 1) + t[i >> 1];
  return t;
})();
var ROTATIONS = /* @__PURE__ */ new Map();
function rotationFor(dim) {
  let r = ROTATIONS.get(dim);
  if (r) return r;
  let size2 = 32;
  while (size2 < dim) size2 <<= 1;
  let a = 2654435769;
  const rand = () => {
    a = a + 1831565813 >>> 0;
    let t = a;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
  const signs = [0, 1, 2].map(() => Float64Array.from({ length: size2 }, () => rand() < 0.5 ? -1 : 1));
  r = { size: size2, signs, tmp: new Float64Array(size2) };
  ROTATIONS.set(dim, r);
  return r;
}
function signCode(rot, v, out2, at2) {
  const x = rot.tmp;
  const size2 = rot.size;
  x.fill(0);
  for (let i = 0; i < v.length; i++) x[i] = v[i];
  for (const sg of rot.signs) {
    for (let i = 0; i < size2; i++) x[i] = x[i] * sg[i];
    for (let h = 1; h < size2; h <<= 1) {
      for (let i = 0; i < size2; i += h << 1) {
        for (let j = i; j < i + h; j++) {
          const p = x[j];
          const q = x[j + h];
          x[j] = p + q;
          x[j + h] = p - q;
        }
      }
    }
  }
  for (let w2 = 0, i = 0; w2 < size2 >>> 5; w2++) {
    let c = 0;
    for (let b = 0; b < 32; b++, i++) if (x[i] > 0) c |= 1 << b;
    out2[at2 + w2] = c >>> 0;
  }
}

// server/src/core/index/semantic.ts
var BATCH2 = 64;
var GC_EVERY = 25e3;
var SAVE_AFTER = 200;
var pause2 = () => new Promise((r) => setImmediate(r));
var OPEN_CHUNK = 64;
var WAIT_OPEN_BELOW = 1e4;
var SemanticLeg = class {
  constructor(store, embedder, opts) {
    this.store = store;
    this.embedder = embedder;
    this.opts = opts;
  }
  store;
  embedder;
  opts;
  vec = null;
  unsubscribe = null;
  pending = /* @__PURE__ */ new Set();
  running = null;
  changes = 0;
  closed = false;
  warned = false;
  /** tombstones' vectors, by embedder id + vector key */
  tombVecs = /* @__PURE__ */ new Map();
  /** The index the current embedder's vectors live in (null until the embedder answered once). */
  get index() {
    return this.vec;
  }
  /**
   * True when (nearly) every memory has its vector. While a store is being (re-)embedded, a
   * search uses the lexical leg alone: a half-embedded store would favour whatever was embedded
   * first.
   */
  get complete() {
    return this.vec !== null && this.pending.size <= Math.max(10, this.vec.size / 100);
  }
  /** Memories still waiting for a vector. */
  get backlog() {
    return this.pending.size;
  }
  /**
   * A server (watch) opens at once: the cache is read and the missing vectors are embedded in the
   * background. A one-shot command opens on first need (ready()), so commands that never search
   * or write never load the embedder or the vectors.
   */
  async open() {
    if (this.opts.watch) void this.ready();
  }
  opening = null;
  /** the cached vectors are all taken (doOpen ran to its end) */
  loaded = false;
  isOpen = false;
  /** Opens the leg if it is not open yet (a no-op after the first call). */
  ready() {
    return this.opening ??= this.store.validated().then(() => this.doOpen()).finally(() => {
      this.isOpen = true;
    });
  }
  /**
   * For a search or a write gate: waits for the leg to open unless the store is still checking
   * its cached records (a big store's first second), or a server's big store is still loading its
   * vectors: it then answers at once (false: no semantic leg for this call) and the leg opens in
   * the background. A small store's leg opens in a few milliseconds and is waited for.
   */
  async readyForSearch() {
    if (this.isOpen) return true;
    if (this.store.validating || this.opts.watch && this.store.activeCount >= WAIT_OPEN_BELOW) {
      void this.ready();
      return false;
    }
    await this.ready();
    return true;
  }
  async doOpen() {
    if (this.closed) return;
    let id;
    let dim;
    try {
      id = this.embedder.id;
      dim = this.embedder.dim;
    } catch (err) {
      this.warnOnce(`semantic search is off: ${err.message}`);
      return;
    }
    const vec2 = this.vec = new VectorIndex(id, dim, capacityFor(this.store.activeCount));
    this.unsubscribe = this.store.onChange((ch) => this.apply(ch));
    if (this.opts.watch) await pause2();
    if (this.closed || this.vec !== vec2) return;
    const cached = readVectors(this.store.dir, (why) => this.opts.warn(`vector cache ignored (${why}); re-embedding`));
    try {
      if (this.opts.watch) await pause2();
      if (this.closed || this.vec !== vec2) return;
      if (cached && cached.embedder === id && cached.dim === dim) {
        const rowOf = rowFinder(cached);
        let k = 0;
        for (const m of this.store.active()) {
          if (this.opts.watch && ++k % OPEN_CHUNK === 0) {
            await sliceYield();
            if (this.closed || this.vec !== vec2) return;
          }
          if (this.opts.watch && vec2.has(m)) continue;
          const i = rowOf(m.id, m.updated);
          if (i === void 0) continue;
          const cw = cached.codeWords;
          let row2;
          try {
            row2 = cached.row(i);
          } catch (err) {
            this.opts.warn(`vector cache ignored part way (${err.message}); re-embedding the rest`);
            break;
          }
          vec2.setRaw(m, row2, cached.scales[i], cw > 0 ? cached.codes.subarray(i * cw, (i + 1) * cw) : void 0);
        }
      }
    } finally {
      cached?.close();
    }
    for (const m of this.store.active()) if (!vec2.has(m)) this.pending.add(m.id);
    this.changes = this.pending.size;
    this.loaded = true;
    if (this.pending.size > 0) {
      if (!this.opts.watch && this.embedder.embedSync) this.embedPendingSync();
      else this.kick();
    }
  }
  apply(ch) {
    const v = this.vec;
    if (!v) return;
    if (ch.kind === "upsert" && !ch.mem.tombstoned) {
      const m = ch.mem;
      const old = v.docOf(m.id);
      if (old && embedText(old) === embedText(m)) v.retarget(m);
      else if (this.embedder.embedSync && v.embedderId === this.embedder.id) {
        try {
          v.set(m, this.embedder.embedSync(embedText(m)));
        } catch {
          v.remove(m.id);
          this.pending.add(m.id);
          this.kick();
        }
      } else {
        v.remove(m.id);
        this.pending.add(m.id);
        this.kick();
      }
    } else {
      const id = ch.kind === "upsert" ? ch.mem.id : ch.prev.id;
      v.remove(id);
      this.pending.delete(id);
    }
    this.changes++;
  }
  embedPendingSync() {
    const v = this.vec;
    const total = this.pending.size;
    let done = 0;
    for (const id of this.pending) {
      const m = this.store.get(id);
      if (m) v.set(m, this.embedder.embedSync(embedText(m)));
      if (++done % 1e3 === 0) this.opts.progress?.(done, total);
    }
    if (total > 0) this.opts.progress?.(total, total);
    this.pending.clear();
  }
  /** Starts the background embedding unless it runs. */
  kick() {
    if (this.running || this.closed) return;
    this.running = this.drain().finally(() => {
      this.running = null;
    });
  }
  async drain() {
    const total = () => this.pending.size + done;
    let done = 0;
    while (this.pending.size > 0 && !this.closed) {
      const batch = [];
      for (const id of this.pending) {
        const m = this.store.get(id);
        this.pending.delete(id);
        if (m) batch.push(m);
        if (batch.length === BATCH2) break;
      }
      if (batch.length === 0) continue;
      const got = await this.embedBatch(batch.map(embedText));
      if (!got) {
        for (const m of batch) this.pending.add(m.id);
        return;
      }
      const v = this.vecFor(got.embedder);
      batch.forEach((m, i) => {
        const cur = this.store.get(m.id);
        if (cur === m || cur && vectorKey(cur) === vectorKey(m) && embedText(cur) === embedText(m)) v.set(cur, got.vectors[i]);
        else if (cur) this.pending.add(m.id);
      });
      done += batch.length;
      this.opts.progress?.(done, total());
      if (done % GC_EVERY < BATCH2 && done >= GC_EVERY) collectGarbage();
      await pause2();
    }
    if (done >= GC_EVERY) collectGarbage();
    if (this.opts.watch && this.changes >= SAVE_AFTER) await this.save();
  }
  async embedBatch(texts) {
    try {
      if (this.embedder.embedWithSource) return await this.embedder.embedWithSource(texts);
      return { vectors: await this.embedder.embed(texts), embedder: { id: this.embedder.id, dim: this.embedder.dim } };
    } catch (err) {
      this.warnOnce(`embedding failed (${err.message}); searching without the semantic leg until it answers`);
      return null;
    }
  }
  /** The index for vectors of `e`: a new one (and a full re-embedding) when the embedder changed. */
  vecFor(e) {
    if (this.vec && this.vec.embedderId === e.id && this.vec.dim === e.dim) return this.vec;
    this.vec = new VectorIndex(e.id, e.dim, capacityFor(this.store.activeCount));
    for (const m of this.store.active()) this.pending.add(m.id);
    this.changes = this.pending.size;
    return this.vec;
  }
  warnOnce(msg) {
    if (this.warned) return;
    this.warned = true;
    this.opts.warn(msg);
  }
  lastQuery = null;
  /** The query's vector and the index it may be compared with; null when the leg cannot answer. */
  async queryVector(text2) {
    await this.ready();
    if (!this.vec) return null;
    let got;
    if (this.embedder.embedSync && this.vec.embedderId === this.embedder.id) {
      try {
        const last = this.lastQuery;
        const q = last && last.text === text2 && last.embedder === this.vec.embedderId ? last.q : this.embedder.embedSync(text2);
        this.lastQuery = { text: text2, embedder: this.vec.embedderId, q };
        got = { vectors: [q], embedder: { id: this.vec.embedderId, dim: this.vec.dim } };
      } catch (err) {
        this.warnOnce(`embedding failed (${err.message}); searching without the semantic leg`);
        return null;
      }
    } else got = await this.embedBatch([text2]);
    if (!got) return null;
    const index = this.vecFor(got.embedder);
    if (this.pending.size > 0) this.kick();
    return { q: got.vectors[0], index };
  }
  /** Semantic neighbours of several texts at once (one embedding call). */
  async search(texts, k, opts) {
    const out2 = [];
    for (const t of texts) {
      const qv = await this.queryVector(t);
      out2.push(qv ? qv.index.search(qv.q, k, opts) : []);
    }
    return out2;
  }
  /** Semantic neighbours of `text` among active memories: id and cosine, best first. */
  async neighbours(text2, limit) {
    const qv = await this.queryVector(text2);
    if (!qv) return [];
    return qv.index.search(qv.q, limit).map((h) => ({ id: h.doc.id, cosine: h.sim, mem: h.doc }));
  }
  /** Semantic neighbours among tombstones (their vectors embedded on first need, kept per content). */
  async removedNeighbours(text2, limit) {
    const qv = await this.queryVector(text2);
    if (!qv) return [];
    const tombs = [...this.store.tombstones()];
    const missing = tombs.filter((t) => !this.tombVecs.has(`${qv.index.embedderId}
${vectorKey(t)}`));
    if (missing.length > 0) {
      const got = await this.embedBatch(missing.map(embedText));
      if (!got || got.embedder.id !== qv.index.embedderId) return [];
      missing.forEach((t, i) => this.tombVecs.set(`${got.embedder.id}
${vectorKey(t)}`, got.vectors[i]));
    }
    const out2 = [];
    for (const t of tombs) {
      const v = this.tombVecs.get(`${qv.index.embedderId}
${vectorKey(t)}`);
      let s2 = 0;
      for (let i = 0; i < v.length; i++) s2 += v[i] * qv.q[i];
      out2.push({ id: t.id, cosine: s2 });
    }
    return out2.sort((a, b) => b.cosine - a.cosine).slice(0, limit);
  }
  /** Waits for the background embedding (tests, close). */
  async settle() {
    while (this.running) await this.running;
  }
  async save() {
    const v = this.vec;
    if (!v || !existsSync3(this.store.dir)) return;
    const docs = [];
    const rows = [];
    for (const { doc, row: row2 } of v.entries()) {
      if (this.store.get(doc.id) !== doc) continue;
      docs.push(doc);
      rows.push(row2);
    }
    try {
      const saving = this.changes;
      await writeVectorSource(this.store.dir, { embedder: v.embedderId, dim: v.dim, codeWords: v.codeWords, count: docs.length, key: (i) => vectorKey(docs[i]), copyRows: (from, to, out2) => v.copyRows(rows, from, to, out2) });
      this.changes = Math.max(0, this.changes - saving);
    } catch (err) {
      this.opts.warn(`could not save the vector cache: ${err.message}`);
    }
  }
  async close() {
    if (!this.opts.watch && this.opening) {
      await this.opening;
      await this.settle();
    }
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.settle();
    if (this.changes > 0 && this.loaded) await this.save();
  }
};
function capacityFor(memories) {
  return Math.max(64, memories + (memories >> 3));
}

// server/src/core/embed/builtin.ts
import { createHash as createHash3 } from "node:crypto";
import { readFileSync as readFileSync6 } from "node:fs";
import { fileURLToPath } from "node:url";

// server/src/core/embed/embedder.ts
var EmbedError = class extends CairnError {
  name = "EmbedError";
};
function normalize(v) {
  let s2 = 0;
  for (let i = 0; i < v.length; i++) s2 += v[i] * v[i];
  if (s2 > 0) {
    const inv = 1 / Math.sqrt(s2);
    for (let i = 0; i < v.length; i++) v[i] = v[i] * inv;
  }
  return v;
}

// server/src/core/embed/ngrams.ts
var NGRAM_MIN = 3;
var NGRAM_MAX = 5;
function fnv1a(s2, from, to) {
  let h = 2166136261;
  for (let i = from; i < to; i++) {
    h ^= s2.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
function ngramIds(word, buckets, out2 = []) {
  if (word.length < 2) return out2;
  const w2 = `<${word}>`;
  for (let n = NGRAM_MIN; n <= NGRAM_MAX; n++) {
    for (let i = 0; i + n <= w2.length; i++) out2.push(fnv1a(w2, i, i + n) % buckets);
  }
  return out2;
}

// server/src/core/embed/tokenize.ts
var SPLIT = /[^\p{L}\p{N}]+/u;
function embedWords(text2, out2 = []) {
  for (const chunk of text2.split(SPLIT)) {
    if (chunk === "") continue;
    if (chunk === chunk.toLowerCase()) {
      out2.push(chunk);
      continue;
    }
    let start = 0;
    const n = chunk.length;
    for (let i = 1; i < n; i++) {
      const c = chunk[i];
      const p = chunk[i - 1];
      const cUp = c !== c.toLowerCase();
      const pUp = p !== p.toLowerCase();
      const pLow = p !== p.toUpperCase();
      if (cUp && (pLow && i - start >= 2 || p >= "0" && p <= "9")) {
        out2.push(chunk.slice(start, i).toLowerCase());
        start = i;
      } else if (cUp && pUp && i + 1 < n) {
        const nx = chunk[i + 1];
        if (nx !== nx.toUpperCase() && i - start >= 2) {
          out2.push(chunk.slice(start, i).toLowerCase());
          start = i;
        }
      }
    }
    out2.push(chunk.slice(start).toLowerCase());
  }
  return out2;
}

// server/src/core/embed/builtin.ts
var EMBED_MAGIC = "CAIRNEMB";
var EMBED_FORMAT_VERSION = 1;
var HEADER_BYTES = 64;
var OOV_CACHE_MAX = 4096;
var LITTLE_ENDIAN2 = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
var SHA1_BYTES = 20;
function pad4(n) {
  return n + 3 & ~3;
}
function decodeEmbedFile(buf, path) {
  const bad = (why) => new EmbedError(`built-in embedding file ${path} is damaged (${why}); reinstall cairn or rebuild it with 'node --import tsx scripts/embed/build.mjs'`);
  if (buf.length < HEADER_BYTES + SHA1_BYTES) throw bad(`only ${buf.length} bytes`);
  if (new TextDecoder().decode(buf.subarray(0, 8)) !== EMBED_MAGIC) throw bad("not a cairn embedding file");
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== EMBED_FORMAT_VERSION) {
    throw new EmbedError(`built-in embedding file ${path} has format version ${version}; this cairn reads version ${EMBED_FORMAT_VERSION}`);
  }
  const dim = dv.getUint32(12, true);
  const nVocab = dv.getUint32(16, true);
  const buckets = dv.getUint32(20, true);
  const nameLen = dv.getUint32(24, true);
  const vocabLen = dv.getUint32(28, true);
  const oovWeight = dv.getFloat32(32, true);
  const nRows = nVocab + buckets;
  const textEnd = pad4(HEADER_BYTES + nameLen + vocabLen);
  const expect = textEnd + nRows * 4 + pad4(nRows * dim) + SHA1_BYTES;
  if (dim === 0 || dim > 4096 || expect !== buf.length) throw bad(`size ${buf.length} bytes, header says ${expect}`);
  const sha = createHash3("sha1").update(buf.subarray(0, buf.length - SHA1_BYTES)).digest();
  if (!sha.equals(buf.subarray(buf.length - SHA1_BYTES))) throw bad("checksum mismatch");
  const dec = new TextDecoder();
  const name = dec.decode(buf.subarray(HEADER_BYTES, HEADER_BYTES + nameLen));
  const vocab = nVocab === 0 ? [] : dec.decode(buf.subarray(HEADER_BYTES + nameLen, HEADER_BYTES + nameLen + vocabLen)).split("\n");
  if (vocab.length !== nVocab) throw bad(`vocabulary has ${vocab.length} words, header says ${nVocab}`);
  const start = textEnd + nRows * 4;
  let scales;
  if (LITTLE_ENDIAN2 && (buf.byteOffset + textEnd) % 4 === 0) {
    scales = new Float32Array(buf.buffer, buf.byteOffset + textEnd, nRows);
  } else {
    scales = new Float32Array(nRows);
    for (let r = 0; r < nRows; r++) scales[r] = dv.getFloat32(textEnd + r * 4, true);
  }
  const rows = new Int8Array(buf.buffer, buf.byteOffset + start, nRows * dim);
  return { name, dim, vocab, buckets, oovWeight, scales, rows };
}
function defaultEmbedFile() {
  const env = process.env.CAIRN_EMBED_FILE;
  if (env) return env;
  const here = import.meta.url;
  const fromSource = here.endsWith(".ts");
  return fileURLToPath(new URL(fromSource ? "../../../dist/cairn-embed.bin" : "./cairn-embed.bin", here));
}
var ACCUM_BATCH = 256;
var RowSummer = class _RowSummer {
  constructor(k, dim, accAt, tmpAt, idsAt, weightsAt) {
    this.k = k;
    this.dim = dim;
    this.accAt = accAt;
    this.tmpAt = tmpAt;
    this.idsAt = idsAt;
    this.weightsAt = weightsAt;
    const buf = k.memory.buffer;
    this.acc = new Float32Array(buf, accAt, dim);
    this.tmp = new Float32Array(buf, tmpAt, dim);
    this.ids = new Int32Array(buf, idsAt, ACCUM_BATCH);
    this.weights = new Float32Array(buf, weightsAt, ACCUM_BATCH);
    this.target = accAt;
  }
  k;
  dim;
  accAt;
  tmpAt;
  idsAt;
  weightsAt;
  /** the running sum (a view into the kernel's memory) */
  acc;
  /** a second sum, for an unknown word's n-grams */
  tmp;
  ids;
  weights;
  n = 0;
  target;
  /** null where WebAssembly SIMD is missing (or CAIRN_NO_SIMD=1): the JavaScript loop then sums. */
  static create(rows, dim) {
    if (dim % 16 !== 0) return null;
    const accAt = Math.ceil(rows.length / 16) * 16;
    const tmpAt = accAt + dim * 4;
    const idsAt = tmpAt + dim * 4;
    const weightsAt = idsAt + ACCUM_BATCH * 4;
    const k = simdKernels(weightsAt + ACCUM_BATCH * 4);
    if (!k) return null;
    new Int8Array(k.memory.buffer, 0, rows.length).set(rows);
    return new _RowSummer(k, dim, accAt, tmpAt, idsAt, weightsAt);
  }
  /** Queues row r x w for the sum `into` (acc or tmp). */
  add(into, r, w2) {
    const at2 = into === "acc" ? this.accAt : this.tmpAt;
    if (at2 !== this.target) {
      this.flush();
      this.target = at2;
    }
    this.ids[this.n] = r;
    this.weights[this.n] = w2;
    if (++this.n === ACCUM_BATCH) this.flush();
  }
  flush() {
    if (this.n === 0) return;
    this.k.accum(this.target, 0, this.dim, this.idsAt, this.weightsAt, this.n);
    this.n = 0;
  }
};
var StaticEmbedModel = class {
  name;
  dim;
  id;
  index;
  nVocab;
  buckets;
  oovWeight;
  scales;
  /** The rows for the JavaScript loop (null when the SIMD kernel holds them). */
  rows;
  summer;
  words = [];
  grams = [];
  oovCache = /* @__PURE__ */ new Map();
  constructor(t) {
    this.name = t.name;
    this.dim = t.dim;
    this.id = `builtin:${t.name}-v${EMBED_FORMAT_VERSION}`;
    this.index = /* @__PURE__ */ new Map();
    for (let i = 0; i < t.vocab.length; i++) this.index.set(t.vocab[i], i);
    this.nVocab = t.vocab.length;
    this.buckets = t.buckets;
    this.oovWeight = t.oovWeight;
    this.summer = process.env.CAIRN_EMBED_JS === "1" ? null : RowSummer.create(t.rows, t.dim);
    this.scales = this.summer ? new Float32Array(t.scales) : t.scales;
    this.rows = this.summer ? null : t.rows;
  }
  addRow(acc, r, w2) {
    const s2 = this.scales[r] * w2;
    const d = this.dim;
    const rows = this.rows;
    const off = r * d;
    for (let k = 0; k < d; k++) acc[k] = acc[k] + s2 * rows[off + k];
  }
  /** An unknown word's vector (mean of its n-gram rows), cached: identifiers repeat across texts. */
  oovVector(w2) {
    const hit = this.oovCache.get(w2);
    if (hit) return hit;
    const grams = this.grams;
    grams.length = 0;
    ngramIds(w2, this.buckets, grams);
    const share = this.oovWeight / grams.length;
    const sum = this.summer;
    let v;
    if (sum) {
      sum.flush();
      sum.tmp.fill(0);
      for (const g of grams) sum.add("tmp", this.nVocab + g, this.scales[this.nVocab + g] * share);
      sum.flush();
      v = sum.tmp.slice();
    } else {
      v = new Float32Array(this.dim);
      for (const g of grams) this.addRow(v, this.nVocab + g, share);
    }
    if (this.oovCache.size >= OOV_CACHE_MAX) this.oovCache.clear();
    this.oovCache.set(w2, v);
    return v;
  }
  /**
   * The last text embedded and its sum before normalizing: a write embeds its text for the gates,
   * then the index embeds `text + "\n" + scopes`, and the words of that are the text's words then
   * the scopes' (a newline always ends a word), so the sum goes on from the cached one, with the
   * same additions in the same order: the same vector, bit for bit.
   */
  lastText = null;
  lastAny = false;
  /** its sum, overwritten in place by every text (no allocation per embedding) */
  lastAcc = null;
  /**
   * Unit vector of `text`; a text with no word at all gets the same fixed unit vector every time.
   * `into` (dim floats, zeroed), when given, receives it and is returned: a batch's vectors are
   * then views of one buffer instead of a buffer outside V8's heap each (200,000 of them in a
   * first start's pass at 200k memories, which fragmented the C heap).
   */
  embed(text2, into) {
    const sum = this.summer;
    const acc = sum ? sum.acc.fill(0) : into ?? new Float32Array(this.dim);
    const words = this.words;
    words.length = 0;
    let any = false;
    const last = this.lastText;
    if (last !== null && text2.length > last.length && text2.charCodeAt(last.length) === 10 && text2.startsWith(last)) {
      acc.set(this.lastAcc);
      any = this.lastAny;
      embedWords(text2.slice(last.length + 1), words);
    } else embedWords(text2, words);
    for (const w2 of words) {
      const id = this.index.get(w2);
      if (id !== void 0) {
        if (sum) sum.add("acc", id, this.scales[id]);
        else this.addRow(acc, id, 1);
        any = true;
        continue;
      }
      if (this.buckets === 0 || w2.length < 2 || /^[0-9]+$/.test(w2)) continue;
      const v = this.oovVector(w2);
      sum?.flush();
      for (let k = 0; k < acc.length; k++) acc[k] = acc[k] + v[k];
      any = true;
    }
    sum?.flush();
    (this.lastAcc ??= new Float32Array(this.dim)).set(acc);
    this.lastText = text2;
    this.lastAny = any;
    const out2 = !sum ? acc : into ? (into.set(acc), into) : acc.slice();
    let s2 = 0;
    for (let k = 0; k < out2.length; k++) s2 += out2[k] * out2[k];
    if (!any || s2 === 0) {
      out2.fill(1 / Math.sqrt(this.dim));
      return out2;
    }
    return normalize(out2);
  }
};
function loadEmbedModel(file) {
  let buf;
  try {
    buf = readFileSync6(file);
  } catch (err) {
    const code = err.code;
    throw new EmbedError(
      code === "ENOENT" ? `built-in embedding file ${file} is missing; reinstall cairn, or set CAIRN_EMBED_FILE to its path` : `cannot read built-in embedding file ${file}: ${err.message}`
    );
  }
  return new StaticEmbedModel(decodeEmbedFile(buf, file));
}
function builtinEmbedder(opts = {}) {
  const file = opts.file ?? defaultEmbedFile();
  let model = null;
  const load = () => model ??= loadEmbedModel(file);
  return {
    file,
    load,
    get id() {
      return load().id;
    },
    get dim() {
      return load().dim;
    },
    embedSync(text2) {
      return load().embed(text2);
    },
    async embed(texts) {
      const m = load();
      const buf = new Float32Array(texts.length * m.dim);
      return texts.map((t, i) => m.embed(t, buf.subarray(i * m.dim, (i + 1) * m.dim)));
    }
  };
}

// server/src/core/embed/providers.ts
var DEFAULT_BATCH = 64;
var DEFAULT_TIMEOUT_MS = 1e4;
function trimSlash(u2) {
  return u2.replace(/\/+$/, "");
}
function openaiEndpoint(url) {
  const u2 = trimSlash(url);
  return /\/embeddings$/.test(u2) ? u2 : `${u2}/embeddings`;
}
async function postJson(what, endpoint, body, headers, timeoutMs) {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  let res;
  try {
    res = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal: ctl.signal
    });
  } catch (err) {
    clearTimeout(timer);
    if (ctl.signal.aborted) throw new EmbedError(`${what}: no answer from ${endpoint} within ${timeoutMs} ms`);
    const cause = err.cause;
    throw new EmbedError(`${what}: cannot reach ${endpoint}: ${cause?.code ?? cause?.message ?? err.message}`);
  }
  try {
    const text2 = await res.text();
    if (!res.ok) {
      throw new EmbedError(`${what}: ${endpoint} answered HTTP ${res.status}${text2 ? `: ${text2.slice(0, 200)}` : ""}`);
    }
    try {
      return JSON.parse(text2);
    } catch {
      throw new EmbedError(`${what}: ${endpoint} answered something that is not JSON`);
    }
  } catch (err) {
    if (ctl.signal.aborted && !(err instanceof EmbedError)) throw new EmbedError(`${what}: no answer from ${endpoint} within ${timeoutMs} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
function toVector(what, v, dim) {
  if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== "number" || !Number.isFinite(x))) {
    throw new EmbedError(`${what}: an embedding is not a non-empty array of numbers`);
  }
  if (dim !== null && v.length !== dim) throw new EmbedError(`${what}: embeddings of different lengths (${dim} and ${v.length})`);
  return normalize(Float32Array.from(v));
}
function batched(what, batch, call) {
  let dim = null;
  return {
    dim: () => dim ?? 0,
    async embed(texts) {
      const out2 = [];
      for (let i = 0; i < texts.length; i += batch) {
        const chunk = texts.slice(i, i + batch);
        const raw = await call(chunk);
        if (raw.length !== chunk.length) throw new EmbedError(`${what}: asked for ${chunk.length} embeddings, got ${raw.length}`);
        for (const v of raw) {
          const vec2 = toVector(what, v, dim);
          dim = vec2.length;
          out2.push(vec2);
        }
      }
      return out2;
    }
  };
}
function ollamaEmbedder(opts) {
  const endpoint = `${trimSlash(opts.url)}/api/embed`;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const what = `ollama embedder (${opts.model})`;
  const b = batched(what, Math.max(1, opts.batch ?? DEFAULT_BATCH), async (input) => {
    const body = await postJson(what, endpoint, { model: opts.model, input }, {}, timeoutMs);
    const embs = body?.embeddings;
    if (!Array.isArray(embs)) throw new EmbedError(`${what}: answer from ${endpoint} has no embeddings array`);
    return embs;
  });
  return {
    id: `ollama:${opts.model}`,
    endpoint,
    get dim() {
      return b.dim();
    },
    embed: (texts) => b.embed(texts)
  };
}
function openaiEmbedder(opts) {
  const endpoint = openaiEndpoint(opts.url);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const what = `openai embedder (${opts.model})`;
  const b = batched(what, Math.max(1, opts.batch ?? DEFAULT_BATCH), async (input) => {
    const headers = {};
    if (opts.apiKeyEnv) {
      const key = process.env[opts.apiKeyEnv];
      if (!key) throw new EmbedError(`${what}: environment variable ${opts.apiKeyEnv} (embed.api_key_env) is not set`);
      headers.authorization = `Bearer ${key}`;
    }
    const body = await postJson(what, endpoint, { model: opts.model, input }, headers, timeoutMs);
    const data = body?.data;
    if (!Array.isArray(data)) throw new EmbedError(`${what}: answer from ${endpoint} has no data array`);
    const out2 = new Array(input.length);
    for (let i = 0; i < data.length; i++) {
      const row2 = data[i];
      const idx = typeof row2?.index === "number" ? row2.index : i;
      if (!Number.isInteger(idx) || idx < 0 || idx >= input.length || out2[idx] !== void 0) {
        throw new EmbedError(`${what}: answer from ${endpoint} has a bad or repeated index ${String(row2?.index)}`);
      }
      out2[idx] = row2?.embedding;
    }
    if (data.length !== input.length) return data;
    return out2;
  });
  return {
    id: `openai:${opts.model}`,
    endpoint,
    get dim() {
      return b.dim();
    },
    embed: (texts) => b.embed(texts)
  };
}
function withFallback(primary, fallback, warn) {
  let degraded = false;
  let lastUsed = null;
  const current = () => degraded ? fallback : primary;
  const embedWithSource = async (texts) => {
    if (!degraded) {
      try {
        const vectors2 = await primary.embed(texts);
        if (!degraded) {
          lastUsed = primary;
          return { vectors: vectors2, embedder: primary };
        }
      } catch (err) {
        if (!degraded) {
          degraded = true;
          warn(`${err.message}; using the built-in embedder (${fallback.id}) instead for the rest of this session`);
        }
      }
    }
    const vectors = await fallback.embed(texts);
    lastUsed = fallback;
    return { vectors, embedder: fallback };
  };
  return {
    primary,
    fallback,
    get id() {
      return current().id;
    },
    get dim() {
      return current().dim;
    },
    get lastUsed() {
      return lastUsed;
    },
    get degraded() {
      return degraded;
    },
    embedWithSource,
    embed: async (texts) => (await embedWithSource(texts)).vectors
  };
}

// server/src/core/embed/config.ts
var OLLAMA_DEFAULT_URL = "http://127.0.0.1:11434";
var OPENAI_DEFAULT_URL = "https://api.openai.com/v1";
var OPENAI_DEFAULT_KEY_ENV = "OPENAI_API_KEY";
function openaiKeyEnv(configured, env = process.env) {
  if (configured) return configured;
  return env[OPENAI_DEFAULT_KEY_ENV] ? OPENAI_DEFAULT_KEY_ENV : void 0;
}
function createEmbedder(config, warn, opts = {}) {
  const c = "embed" in config ? config.embed : config;
  if (!c.enabled) return null;
  const builtin = builtinEmbedder(opts.builtinFile ? { file: opts.builtinFile } : {});
  switch (c.provider) {
    case "builtin":
      return builtin;
    case "ollama":
      return withFallback(ollamaEmbedder({ url: c.url ?? OLLAMA_DEFAULT_URL, model: c.model ?? "", timeoutMs: c.timeout_ms }), builtin, warn);
    case "openai":
      return withFallback(
        openaiEmbedder({ url: c.url ?? OPENAI_DEFAULT_URL, model: c.model ?? "", apiKeyEnv: openaiKeyEnv(c.api_key_env), timeoutMs: c.timeout_ms }),
        builtin,
        warn
      );
    default:
      c.provider;
      throw new ConfigError(`embed.provider ${String(c.provider)} is not known`);
  }
}

// server/src/core/memory.ts
function isExpired(m, now) {
  return m.expires !== null && Date.parse(m.expires) <= now.getTime();
}
function isDisabled(disabled, m) {
  if (disabled.size === 0) return false;
  return m.scopes.some((s2) => {
    for (const d of disabled) if (s2 === d || s2.startsWith(`${d}:`)) return true;
    return false;
  });
}
function isVisible(disabled, m, now) {
  return !isExpired(m, now) && !isDisabled(disabled, m);
}
function hasGlobalScope(scopes, global2) {
  if (global2.length === 0) return false;
  return scopes.some((s2) => global2.some((g) => s2 === g || s2.startsWith(`${g}:`)));
}
function inViewKey(callerRepoKey, global2, key, scopes) {
  if (key === null) return true;
  if (callerRepoKey !== null) return key === callerRepoKey;
  return hasGlobalScope(scopes, global2);
}
var repoKeys = /* @__PURE__ */ new WeakMap();
function repoKeyOf(m) {
  let key = repoKeys.get(m.origin);
  if (key === void 0) repoKeys.set(m.origin, key = originRepoKey(m.origin));
  return key;
}
function recordHead(m) {
  return {
    id: m.id,
    scopes: m.scopes,
    confidence: m.confidence,
    category: m.category,
    created: m.created,
    updated: m.updated,
    last_verified_at: m.last_verified_at,
    // A note (the memory tool's file) says so, with its /memories path; a memory's row is unchanged.
    ...m.note !== void 0 ? { kind: "note", path: m.note } : {}
  };
}
function summarize(body, max = 80) {
  const flat = body.replace(/\s+/g, " ").trim();
  const m = /^(.+?[.!?])(?:\s|$)/.exec(flat);
  const first = m ? m[1] : flat;
  if (first.length <= max) return first;
  const cut = first.slice(0, max - 1);
  const sp = cut.lastIndexOf(" ");
  return `${(sp > max / 2 ? cut.slice(0, sp) : cut).replace(/[\s,;:.-]+$/, "")}…`;
}
function stripStored(m) {
  const { file, tombstoned, size: size2, mtimeMs, extra, idAssigned, note, ...rec } = m;
  void file;
  void tombstoned;
  void size2;
  void mtimeMs;
  void extra;
  void idAssigned;
  void note;
  return rec;
}

// server/src/core/trust/signals/compute.ts
import { homedir as homedir3 } from "node:os";

// server/src/core/trust/signals/citedPaths.ts
import { existsSync as existsSync4, statSync as statSync5 } from "node:fs";
import { homedir as homedir2 } from "node:os";
import { isAbsolute as isAbsolute3, join as join17, resolve as resolve3 } from "node:path";
var MAX_CITED_PATHS = 8;
var PLACEHOLDER_SEGMENT = /^(?:foo|bar|baz|qux|quux|foobar|example|examples?-\w+|dummy|placeholder|xxx+|some(?:where|thing)?|your[-_\w]*)(?:\.\w+)?$/i;
var ROUTE_ROOT = /^(?:api|v\d+|graphql|rest|rpc|auth|oauth2?|login|logout|signin|signup|callback|webhooks?|health|healthz|metrics|status|admin)$/i;
var FILE_EXT = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs|json|jsonc|md|mdx|txt|toml|ya?ml|ini|cfg|conf|env|lock|py|pyi|rb|rs|go|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|fish|ps1|sql|css|scss|html|vue|svelte|xml|csv|proto|gradle|tf|nix|dockerfile|log|pem|crt|plist)$/i;
function hasFileExtension(seg) {
  return FILE_EXT.test(seg) || /^[^.]*[^./][^/]*\.[A-Za-z][A-Za-z0-9]{1,9}$/.test(seg);
}
function isDotfileName(seg) {
  if (!/^\.[a-z][a-z0-9._-]*$/.test(seg)) return false;
  return /[-_.]/.test(seg.slice(1)) || /(?:rc|ignore|attributes|config|modules|keep|env)$/.test(seg);
}
function stripLineSuffix(p) {
  return p.replace(/:\d+(?::\d+)?$/, "");
}
function segmentsOf(p) {
  return p.split(/[\\/]+/).filter((s2) => s2 !== "" && s2 !== "~" && !/^[A-Za-z]:$/.test(s2));
}
function isObviouslyFake(p) {
  if (/\.\.\.|\u2026|<|>|\*|\?|\{|\}|\$|%/.test(p)) return true;
  if (/^\/path\/to(?:\/|$)/i.test(p) || /(^|[\\/])path[\\/]to([\\/]|$)/i.test(p)) return true;
  return segmentsOf(p).some((s2) => PLACEHOLDER_SEGMENT.test(s2));
}
function isDomainLike(seg) {
  const m = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.([a-z]{2,12})$/i.exec(seg);
  return m !== null && !FILE_EXT.test(`.${m[1]}`);
}
var DEVICE = /^\/dev\/(?:null|zero|stdin|stdout|stderr|tty|u?random)$/;
function asCitedPath(raw, fromBackticks) {
  if (/\.\.\.|\u2026/.test(raw)) return null;
  let p = raw.trim().replace(/[.,;:!?)\]'"]+$/, "");
  p = stripLineSuffix(p);
  if (p.length < 2 || p.length > 400) return null;
  const windows = /^[A-Za-z]:[\\/]/.test(p);
  if (/\s/.test(p) && !windows) return null;
  if (p.startsWith("-")) return null;
  if (p.includes("://") || /^[\w.-]+@[\w.-]+:/.test(p) || p.startsWith("@")) return null;
  if (isObviouslyFake(p)) return null;
  const segs = segmentsOf(p);
  if (p.startsWith("/")) {
    if (segs.length < 2) return null;
    if (ROUTE_ROOT.test(segs[0]) || DEVICE.test(p)) return null;
    return p;
  }
  if (p.startsWith("~/")) return segs.length >= 1 ? p : null;
  if (windows) return segs.length >= 1 ? p : null;
  if (!/^[\w.@+\-/\\]+$/.test(p) || p.startsWith("~")) return null;
  const last = segs[segs.length - 1] ?? "";
  if (!p.startsWith("./") && !p.startsWith("../") && isDomainLike(segs[0] ?? "") && segs.length >= 2) return null;
  if (!fromBackticks) {
    if (segs.length < 2 && !p.startsWith("./") && !p.startsWith("../")) return null;
    return hasFileExtension(last) ? p : null;
  }
  if (p.startsWith("./") || p.startsWith("../")) return segs.length >= 1 ? p : null;
  if (segs.length === 1) {
    if (p.endsWith("/") && /^[\w.-]+\/$/.test(p)) return p;
    return FILE_EXT.test(last) && !/^\d/.test(last) || isDotfileName(last) ? p : null;
  }
  if (segs.length === 2 && !hasFileExtension(last) && !p.endsWith("/") && !segs[0].startsWith(".")) return null;
  return p;
}
var CANDIDATE_RE = /`([^`\n]+)`|(?<![\w.:/~@\\$-])(~?\/[\w.@+-]+(?:\/[\w.@+-]+)*\/?|[A-Za-z]:\\[^\s`'"<>|*?]+)|(?<![\w.:/~@\\$%{<*-])((?:\.\.?\/|\.(?=\w))?[\w@+-][\w.@+-]*(?:\/[\w.@+-]+)+)(?![\w/*{}<>$(])/g;
function commandWords(span) {
  const out2 = [];
  for (let w2 of span.split(/\s+/)) {
    w2 = w2.replace(/^\d*[<>]+&?/, "").replace(/^[('"]+|[)'";&|]+$/g, "");
    if (w2 === "" || w2 === "&&" || w2 === "||" || w2 === "|") continue;
    const eq = /^(?:--?[\w-]+|[A-Za-z_][A-Za-z0-9_]*)=(.+)$/.exec(w2);
    if (eq) w2 = eq[1].replace(/^['"]|['"]$/g, "");
    else if (w2.startsWith("-")) continue;
    if (/^[\w.-]+:(?![\\/])/.test(w2) && !/^[A-Za-z]:[\\/]/.test(w2)) continue;
    out2.push(w2);
  }
  return out2;
}
function extractCitedPaths(body, max = MAX_CITED_PATHS) {
  const out2 = [];
  const take = (p) => {
    if (p && !out2.includes(p) && out2.length < max) out2.push(p);
  };
  for (const m of body.matchAll(CANDIDATE_RE)) {
    if (m[1] !== void 0) {
      const span = m[1].trim();
      const windows = /^[A-Za-z]:[\\/]/.test(span);
      if (/\s/.test(span) && !windows) for (const w2 of commandWords(span)) take(asCitedPath(w2, true));
      else take(asCitedPath(span, true));
    } else {
      take(asCitedPath(m[2] ?? m[3], false));
    }
    if (out2.length >= max) break;
  }
  return out2;
}
function resolveCitedPath(p, ctx) {
  if (p.startsWith("~/")) return join17(ctx.home ?? homedir2(), p.slice(2));
  if (/^[A-Za-z]:[\\/]/.test(p)) return process.platform === "win32" ? p : null;
  if (isAbsolute3(p)) return p;
  return ctx.relativeRoot ? resolve3(ctx.relativeRoot, p) : null;
}
function checkPaths(paths, ctx) {
  const missing = [];
  let checked = 0;
  for (const p of paths) {
    const abs = resolveCitedPath(p, ctx);
    if (abs === null) continue;
    checked++;
    if (!existsSync4(abs)) missing.push(p);
  }
  return { checked, missing };
}
function isDirectory(dir) {
  if (!dir) return false;
  try {
    return statSync5(dir).isDirectory();
  } catch {
    return false;
  }
}

// server/src/core/trust/signals/commitDrift.ts
import { execFile as execFile2 } from "node:child_process";
import { readFileSync as readFileSync7, statSync as statSync6 } from "node:fs";
import { isAbsolute as isAbsolute4, join as join18, resolve as resolve4 } from "node:path";
var GIT_TIMEOUT_MS2 = 2e3;
var MAX_BUFFER = 64 * 1024 * 1024;
function gitDirs(root) {
  try {
    const dotGit = join18(root, ".git");
    let gitDir = dotGit;
    if (!statSync6(dotGit).isDirectory()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync7(dotGit, "utf8"));
      if (!m) return null;
      gitDir = isAbsolute4(m[1].trim()) ? m[1].trim() : resolve4(root, m[1].trim());
    }
    let commonDir = gitDir;
    try {
      const c = readFileSync7(join18(gitDir, "commondir"), "utf8").trim();
      commonDir = isAbsolute4(c) ? c : resolve4(gitDir, c);
    } catch {
    }
    return { gitDir, commonDir };
  } catch {
    return null;
  }
}
async function headSha(root, timeoutMs = GIT_TIMEOUT_MS2) {
  const fast = readHeadSha(root);
  if (fast) return fast;
  return new Promise((done) => {
    execFile2("git", ["-C", root, "rev-parse", "--verify", "-q", "HEAD"], { timeout: timeoutMs, env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" } }, (err, stdout) => {
      const sha = stdout?.trim() ?? "";
      done(!err && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null);
    });
  });
}
function readHeadSha(root) {
  const dirs = gitDirs(root);
  if (!dirs) return null;
  try {
    const head = readFileSync7(join18(dirs.gitDir, "HEAD"), "utf8").trim();
    if (/^[0-9a-f]{40,64}$/.test(head)) return head;
    const ref2 = /^ref:\s*(\S+)$/.exec(head)?.[1];
    if (!ref2) return null;
    for (const dir of [dirs.gitDir, dirs.commonDir]) {
      try {
        const sha = readFileSync7(join18(dir, ref2), "utf8").trim();
        if (/^[0-9a-f]{40,64}$/.test(sha)) return sha;
      } catch {
      }
    }
    const packed = readFileSync7(join18(dirs.commonDir, "packed-refs"), "utf8");
    for (const line of packed.split("\n")) {
      const [sha, name] = line.split(" ");
      if (name === ref2 && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
    }
  } catch {
  }
  return null;
}
function gitLogTimes(root, since, timeoutMs) {
  const args = ["-C", root, "log", "--format=%H %ct %P", "HEAD"];
  if (since > 0) args.push(`--since=${new Date(since * 1e3).toISOString()}`);
  return new Promise((done, fail) => {
    execFile2(
      "git",
      args,
      { timeout: timeoutMs, maxBuffer: MAX_BUFFER, env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" } },
      (err, stdout) => {
        if (err) return fail(err);
        const times = [];
        const commits = /* @__PURE__ */ new Map();
        for (const line of stdout.split("\n")) {
          const [sha, ct, ...parents] = line.split(" ");
          const time2 = Number(ct);
          if (!sha || !Number.isFinite(time2)) continue;
          times.push(time2);
          commits.set(sha, { time: time2, parents: parents.filter((p) => p !== "") });
        }
        done({ times: times.sort((a, b) => a - b), commits });
      }
    );
  });
}
function countNewer(times, t) {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = lo + hi >>> 1;
    if (times[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return times.length - lo;
}
function countAtOrAfter(times, t) {
  return countNewer(times, t - 1);
}
function countNotReachable(entry, head) {
  const cached = entry.after.get(head);
  if (cached !== void 0) return cached;
  const seen = /* @__PURE__ */ new Set();
  const stack = [head];
  while (stack.length > 0) {
    const sha = stack.pop();
    if (seen.has(sha)) continue;
    const c = entry.commits.get(sha);
    if (!c) continue;
    seen.add(sha);
    for (const p of c.parents) if (!seen.has(p)) stack.push(p);
  }
  const n = entry.commits.size - seen.size;
  entry.after.set(head, n);
  return n;
}
function commitsSince(entry, secs, head) {
  if (head && entry.commits.has(head)) return countNotReachable(entry, head);
  if (head) return countAtOrAfter(entry.times, secs);
  return countNewer(entry.times, secs);
}
var CommitDriftCache = class {
  constructor(timeoutMs = GIT_TIMEOUT_MS2) {
    this.timeoutMs = timeoutMs;
  }
  timeoutMs;
  entries = /* @__PURE__ */ new Map();
  /** git invocations so far (tests assert one per batch). */
  gitCalls = 0;
  /**
   * Commit drift for each verification (ISO time, or time plus the HEAD recorded at verify time)
   * against HEAD of the repo at `root`. The result array is parallel to `verified`. At most one
   * git invocation.
   */
  async driftFor(root, verified) {
    const items = verified.map((v) => typeof v === "string" ? { at: v, head: null } : v);
    const secs = items.map((v) => Math.floor(Date.parse(v.at) / 1e3));
    if (secs.length === 0) return [];
    const valid = secs.filter((s2) => Number.isFinite(s2));
    const needSince = valid.length > 0 ? Math.max(0, Math.min(...valid) - 86400) : 0;
    const head = readHeadSha(root);
    let entry = this.entries.get(root);
    if (!entry || head === null || entry.head !== head || entry.since > needSince) {
      try {
        this.gitCalls++;
        const log2 = await gitLogTimes(root, needSince, this.timeoutMs);
        entry = { head, times: log2.times, commits: log2.commits, after: /* @__PURE__ */ new Map(), since: needSince };
        if (head !== null) this.entries.set(root, entry);
      } catch {
        return secs.map(() => ({ commits_since_verify: null, status: "unknown" }));
      }
    }
    const log = entry;
    return secs.map((s2, i) => {
      if (!Number.isFinite(s2)) return { commits_since_verify: null, status: "unknown" };
      const n = commitsSince(log, s2, items[i].head);
      return { commits_since_verify: n, status: n > 0 ? "behind" : "up_to_date" };
    });
  }
};
var defaultCommitDriftCache = new CommitDriftCache();

// server/src/core/trust/signals/verdict.ts
var VERDICTS = ["fresh", "spot_check_recommended", "spot_check_required"];
function stalenessVerdict(input) {
  if (input.verification === "never" || input.verification === "stale") return "spot_check_required";
  if (input.pathMissing > 0 || (input.commitsSinceVerify ?? 0) > 0) return "spot_check_recommended";
  return "fresh";
}

// server/src/core/trust/signals/verification.ts
var DAY_MS2 = 864e5;
function verificationOf(lastVerifiedAt, now, staleAfterDays) {
  if (lastVerifiedAt === null) return { status: "never", age_days: null, stale_after_days: staleAfterDays };
  const t = Date.parse(lastVerifiedAt);
  if (!Number.isFinite(t)) return { status: "never", age_days: null, stale_after_days: staleAfterDays };
  const ageMs = Math.max(0, now.getTime() - t);
  return {
    status: ageMs > staleAfterDays * DAY_MS2 ? "stale" : "fresh",
    age_days: Math.floor(ageMs / DAY_MS2),
    stale_after_days: staleAfterDays
  };
}

// server/src/core/trust/signals/compute.ts
function fromCallerRepo(ctx, m) {
  if (!ctx.caller.repoRoot || !ctx.caller.repoKey) return false;
  return originRepoKey(m.origin) === ctx.caller.repoKey;
}
function relativeRootFor(ctx, m, sameRepo) {
  if (!sameRepo) return null;
  return isDirectory(m.origin.worktree_root) ? m.origin.worktree_root : ctx.caller.repoRoot;
}
var CITED_MEMO = 1024;
var citedMemo = /* @__PURE__ */ new Map();
function citedPathsOf(body) {
  let paths = citedMemo.get(body);
  if (paths === void 0) {
    paths = extractCitedPaths(body);
    if (citedMemo.size >= CITED_MEMO) citedMemo.delete(citedMemo.keys().next().value);
    citedMemo.set(body, paths);
  }
  return paths;
}
async function computeSignals(ctx, mems, opts = { detail: false }) {
  const home = ctx.env.HOME ?? homedir3();
  const staleDays = ctx.config.behavior.verification_stale_days;
  const applies = mems.filter((m) => m.last_verified_at !== null && fromCallerRepo(ctx, m));
  const drifts = /* @__PURE__ */ new Map();
  if (applies.length > 0 && ctx.caller.repoRoot) {
    const cache2 = ctx.drift ?? defaultCommitDriftCache;
    const res = await cache2.driftFor(ctx.caller.repoRoot, applies.map((m) => ({ at: m.last_verified_at, head: m.verified_head ?? null })));
    applies.forEach((m, i) => drifts.set(m.id, res[i]));
  }
  const out2 = /* @__PURE__ */ new Map();
  for (const m of mems) {
    const sameRepo = fromCallerRepo(ctx, m);
    const verification = verificationOf(m.last_verified_at, ctx.now, staleDays);
    const paths = checkPaths(citedPathsOf(m.body), { home, relativeRoot: relativeRootFor(ctx, m, sameRepo) });
    const drift = drifts.get(m.id);
    const count = drift?.commits_since_verify ?? null;
    const s2 = {
      verification,
      path_drift_checked: paths.checked,
      path_drift_missing: paths.missing.length,
      ...count !== null ? { commit_drift_count: count } : {},
      staleness_verdict: stalenessVerdict({
        verification: verification.status,
        pathMissing: paths.missing.length,
        commitsSinceVerify: count
      })
    };
    if (opts.detail) {
      s2.path_drift = { checked: paths.checked, missing: paths.missing };
      s2.commit_drift = drift ?? { commits_since_verify: null, status: "not_applicable" };
    }
    out2.set(m.id, s2);
  }
  return out2;
}

// server/src/core/ops/common.ts
var MAX_IDS_PER_CALL = LIMITS.idsPerCall;
function checkId(id, arg = "id") {
  if (typeof id !== "string" || id.trim() === "") throw new ValidationError(`${arg} must be a memory id (a 26-character ULID like 01JQ3Z8V7M2K4T6Y9B1C3D5F7H)`);
  const up = id.trim().toUpperCase();
  if (!isUlid(up)) {
    const shown2 = id.length > 40 ? `${JSON.stringify(id.slice(0, 40))}...` : JSON.stringify(id);
    throw new MalformedIdError(`${arg} ${shown2} is not a memory id: ids are 26-character ULIDs like 01JQ3Z8V7M2K4T6Y9B1C3D5F7H`);
  }
  return up;
}
function tombstonedMessage(t) {
  return `memory ${t.id} was removed on ${t.removed?.slice(0, 10)} (reason: ${JSON.stringify(t.removed_reason ?? "")}); memory_restore brings it back`;
}
async function settleUnknownIds(c, raw) {
  const unknown = raw.some((r) => {
    if (typeof r !== "string") return false;
    const id = r.trim().toUpperCase();
    return isUlid(id) && !c.store.holds(id) && !(c.team?.store.holds(id) ?? false);
  });
  if (unknown) {
    await c.store.lock.run(() => c.store.sync());
    const t = c.team;
    if (t !== null) await t.store.lock.run(() => t.store.sync());
  }
}
function requireActive(c, rawId, arg = "id") {
  const id = checkId(rawId, arg);
  const m = c.store.get(id);
  if (m) return m;
  const t = c.store.getTombstone(id);
  if (t) throw new TombstonedError(tombstonedMessage(t));
  throw new NotFoundError(`no memory with id ${id}`);
}
function requireActiveAny(c, rawId, arg = "id") {
  const id = checkId(rawId, arg);
  const f = findAny(c, id);
  if (f && !f.tombstoned) return { m: f.m, owner: f.owner };
  if (f) throw new TombstonedError(`${tombstonedMessage(f.m)}${f.owner.storeKind === "team" ? " (team store)" : ""}`);
  throw new NotFoundError(`no memory with id ${id}`);
}
function signalContext(c) {
  return { config: c.config, caller: c.caller, now: c.now(), env: c.env };
}
async function hitFields(c, mems, detail = false) {
  const sig = await computeSignals(signalContext(c), mems, { detail });
  return mems.map((m) => {
    const { path_drift, commit_drift, ...common } = sig.get(m.id);
    return { ...recordHead(m), store: c.storeKind, ...common, ...detail ? { path_drift, commit_drift } : {} };
  });
}
function ownerOf(c, m) {
  const t = c.team;
  return t !== null && (t.store.get(m.id) === m || t.store.getTombstone(m.id) === m) ? t : c;
}
async function ownedHitFields(c, mems, detail = false) {
  if (c.team === null) return hitFields(c, mems, detail);
  const groups = /* @__PURE__ */ new Map();
  mems.forEach((m, i) => {
    const o = ownerOf(c, m);
    const g = groups.get(o);
    if (g) g.push(i);
    else groups.set(o, [i]);
  });
  const out2 = new Array(mems.length);
  for (const [o, idx] of groups) {
    const f = await hitFields(o, idx.map((i) => mems[i]), detail);
    idx.forEach((i, k) => out2[i] = f[k]);
  }
  return out2;
}
function findAny(c, id) {
  for (const o of c.team === null ? [c] : [c, c.team]) {
    const m = o.store.get(id);
    if (m) return { m, owner: o, tombstoned: false };
  }
  for (const o of c.team === null ? [c] : [c, c.team]) {
    const t = o.store.getTombstone(id);
    if (t) return { m: t, owner: o, tombstoned: true };
  }
  return null;
}
function encodeCursor(lastId) {
  return Buffer.from(`v1:${lastId}`).toString("base64url");
}
function decodeCursor(cursor) {
  if (typeof cursor !== "string" || cursor === "") throw new ValidationError("cursor must be the next_cursor string from a previous page");
  const text2 = Buffer.from(cursor, "base64url").toString("utf8");
  const m = /^v1:([0-9A-HJKMNP-TV-Z]{26})$/.exec(text2);
  if (!m) throw new ValidationError(`cursor ${JSON.stringify(cursor.slice(0, 40))} was not issued by this server: pass next_cursor from a previous page, or omit it to start over`);
  return m[1];
}
function checkLimit(v, arg, max, dflt) {
  if (v === void 0 || v === null) return dflt;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > max) throw new ValidationError(`${arg} must be a whole number from 1 to ${max}, got ${JSON.stringify(v)}`);
  return v;
}
function checkNote(v, arg, required) {
  if (v === void 0 || v === null) {
    if (required) throw new ValidationError(`${arg} is required: say why in a few words`);
    return null;
  }
  if (typeof v !== "string") throw new ValidationError(`${arg} must be a string`);
  const t = v.trim();
  if (required && t === "") throw new ValidationError(`${arg} is empty: say why in a few words`);
  if (t.length > LIMITS.noteChars) throw new ValidationError(`${arg} is ${t.length} characters: at most ${LIMITS.noteChars}`);
  return t === "" ? null : t;
}

// server/src/core/curation/events.ts
import { closeSync as closeSync7, existsSync as existsSync6, fstatSync as fstatSync4, openSync as openSync7, writeSync as writeSync6, constants as constants5 } from "node:fs";
import { join as join20 } from "node:path";

// server/src/core/curation/archives.ts
import {
  closeSync as closeSync6,
  fsyncSync,
  openSync as openSync6,
  lstatSync as lstatSync7,
  readFileSync as readFileSync8,
  readdirSync as readdirSync6,
  renameSync as renameSync5,
  rmSync as rmSync7,
  statSync as statSync7,
  writeSync as writeSync5,
  existsSync as existsSync5
} from "node:fs";
import { join as join19 } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { randomBytes as randomBytes4 } from "node:crypto";
var ACTIVE_LOG = ".events.jsonl";
var LOCK = ".events.lock";
var LOCK_STALE_MS = 6e4;
var DEFAULT_GRACE_MS = 1e4;
var ARCHIVE_RE = /^\.events-(\d{8}T\d{9}Z)(?:-(\d+))?\.jsonl(\.gz)?$/;
function archiveStamp(d) {
  return d.toISOString().replace(/[-:.]/g, "");
}
function stampTime(stamp2) {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/.exec(stamp2);
  if (!m) return NaN;
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], +m[7]);
}
function withTryLock(dir, fn) {
  const file = join19(dir, LOCK);
  let fd;
  try {
    fd = openSync6(file, "wx", 384);
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
    try {
      if (Date.now() - statSync7(file).mtimeMs < LOCK_STALE_MS) return null;
      const aside = `${file}.${process.pid}.${randomBytes4(4).toString("hex")}.tmp`;
      renameSync5(file, aside);
      rmSync7(aside, { force: true });
      fd = openSync6(file, "wx", 384);
    } catch {
      return null;
    }
  }
  try {
    writeSync5(fd, `${process.pid} ${Date.now()}
`);
    closeSync6(fd);
    return fn();
  } finally {
    rmSync7(file, { force: true });
  }
}
function rotateActive(dir, maxBytes, now) {
  return withTryLock(dir, () => {
    const active = join19(dir, ACTIVE_LOG);
    let size2;
    try {
      size2 = statSync7(active).size;
    } catch {
      return null;
    }
    if (size2 <= maxBytes) return null;
    const stamp2 = archiveStamp(now());
    let target = join19(dir, `.events-${stamp2}.jsonl`);
    for (let n = 1; existsSync5(target) || existsSync5(`${target}.gz`); n++) {
      target = join19(dir, `.events-${stamp2}-${n}.jsonl`);
    }
    renameSync5(active, target);
    return target;
  });
}
function compressArchives(dir, opts) {
  return withTryLock(dir, () => {
    const done = [];
    const names = new Set(readdirSync6(dir).filter((n) => n.startsWith(".events-")));
    for (const name of names) {
      const m = ARCHIVE_RE.exec(name);
      if (!m || m[3]) continue;
      const plain = join19(dir, name);
      const gz = `${plain}.gz`;
      if (names.has(`${name}.gz`)) {
        rmSync7(plain, { force: true });
        continue;
      }
      const now = opts.now.getTime();
      const rotatedAt = stampTime(m[1]);
      const st = statSync7(plain);
      const quiet = Math.min(now - rotatedAt, Date.now() - st.mtimeMs);
      if (opts.graceMs > 0 && quiet < opts.graceMs) continue;
      const data = gzipSync(readFileSync8(plain));
      const tmp = join19(dir, `.${name}.gz.${process.pid}.${randomBytes4(4).toString("hex")}.tmp`);
      const fd = openSync6(tmp, "wx", 384);
      try {
        writeSync5(fd, data);
        fsyncSync(fd);
      } finally {
        closeSync6(fd);
      }
      renameSync5(tmp, gz);
      rmSync7(plain, { force: true });
      done.push(gz);
    }
    return done;
  }) ?? [];
}
function listLogFiles(dir, listed) {
  let names;
  try {
    names = (listed ?? readdirSync6(dir)).filter((n) => n.startsWith(".events"));
  } catch {
    return [];
  }
  names = names.filter((n) => {
    try {
      return lstatSync7(join19(dir, n)).isFile();
    } catch {
      return false;
    }
  });
  const present = new Set(names);
  const archives = [];
  for (const name of names) {
    const m = ARCHIVE_RE.exec(name);
    if (!m || m[3] === void 0 && present.has(`${name}.gz`)) continue;
    archives.push({ name, stamp: m[1], n: Number(m[2] ?? 0) });
  }
  archives.sort((a, b) => a.stamp < b.stamp ? -1 : a.stamp > b.stamp ? 1 : a.n - b.n);
  const out2 = archives.map(({ name, stamp: stamp2 }) => ({ file: join19(dir, name), compressed: name.endsWith(".gz"), rotatedAt: stampTime(stamp2) }));
  if (present.has(ACTIVE_LOG)) out2.push({ file: join19(dir, ACTIVE_LOG), compressed: false, rotatedAt: null });
  return out2;
}
function isEvent(v) {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const o = v;
  return typeof o.ts === "string" && typeof o.kind === "string" && !Number.isNaN(Date.parse(o.ts));
}
function readEvents(dir, opts = {}) {
  for (let attempt = 1; ; attempt++) {
    const result = readOnce(dir, opts, attempt === 3);
    if (result !== null) return result;
  }
}
function readOnce(dir, opts, tolerateMissing) {
  const result = { events: [], corruptLines: 0, unreadableFiles: [], files: [] };
  for (const { file, compressed, rotatedAt } of listLogFiles(dir)) {
    if (opts.since !== void 0 && rotatedAt !== null && rotatedAt < opts.since) continue;
    let text2;
    try {
      const raw = readFileSync8(file);
      text2 = (compressed ? gunzipSync(raw) : raw).toString("utf8");
    } catch (err) {
      if (err.code === "ENOENT") {
        if (tolerateMissing) continue;
        return null;
      }
      result.unreadableFiles.push(file);
      continue;
    }
    result.files.push(file);
    for (const line of text2.split("\n")) {
      if (line.trim() === "") continue;
      try {
        const v = JSON.parse(line);
        if (isEvent(v)) result.events.push(v);
        else result.corruptLines++;
      } catch {
        result.corruptLines++;
      }
    }
  }
  result.events.sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
  return result;
}

// server/src/core/curation/events.ts
var MAX_LINE_BYTES = 256 * 1024;
var EventLog = class {
  file;
  enabled;
  maxBytes;
  dir;
  session;
  now;
  warnFn;
  graceMs;
  warned = /* @__PURE__ */ new Set();
  compressTimer;
  constructor(opts) {
    this.dir = opts.dir;
    this.file = join20(opts.dir, ACTIVE_LOG);
    this.session = opts.session;
    this.enabled = opts.enabled ?? true;
    this.maxBytes = opts.maxBytes ?? 1e7;
    this.now = opts.now ?? (() => /* @__PURE__ */ new Date());
    this.warnFn = opts.warn ?? ((m) => process.stderr.write(`cairn: ${m}
`));
    this.graceMs = opts.compressGraceMs ?? DEFAULT_GRACE_MS;
  }
  appended = [];
  /**
   * Calls `fn` after each line this process appends, with the file's size and inode right after
   * it (the feedback fold takes its own process's events this way instead of reading them back).
   */
  onAppend(fn) {
    this.appended.push(fn);
  }
  /** Appends one event. Returns whether a line was written; never throws. */
  append(kind, fields = {}) {
    if (!this.enabled) return false;
    try {
      if (!existsSync6(this.dir)) return false;
      const line = this.format(kind, fields);
      const st = this.writeLine(line);
      for (const fn of this.appended) fn(line, st.size, st.ino);
      if (st.size > this.maxBytes) this.rotate();
      return true;
    } catch (err) {
      this.warn(`could not append to the event log ${this.file}: ${errorMessage(err)}`);
      return false;
    }
  }
  /** Rotates now if the active log is past max_bytes (another process may have done it already). */
  rotate() {
    try {
      const archived = rotateActive(this.dir, this.maxBytes, () => this.now());
      if (archived === null) return;
      compressArchives(this.dir, { graceMs: this.graceMs, now: this.now() });
      this.scheduleCompression();
    } catch (err) {
      this.warn(`could not rotate the event log ${this.file}: ${errorMessage(err)}`);
    }
  }
  /** Stops the pending compression timer (the archive stays plain until the next rotation). */
  close() {
    if (this.compressTimer) clearTimeout(this.compressTimer);
    this.compressTimer = void 0;
  }
  format(kind, fields) {
    const { ts: _ts, session: _s, kind: _k, ...rest } = fields;
    const event = { ts: this.now().toISOString(), session: this.session, kind, ...rest };
    let line = JSON.stringify(event) + "\n";
    if (Buffer.byteLength(line) > MAX_LINE_BYTES) {
      line = JSON.stringify({ ts: event.ts, session: event.session, kind, truncated: true }) + "\n";
    }
    return line;
  }
  /** One open(O_APPEND) + one write per line; returns the file's size and inode after the write. */
  writeLine(line) {
    const buf = Buffer.from(line, "utf8");
    const fd = openSync7(this.file, constants5.O_WRONLY | constants5.O_APPEND | constants5.O_CREAT | constants5.O_NOFOLLOW, 384);
    try {
      const written = writeSync6(fd, buf, 0, buf.length);
      if (written !== buf.length) {
        writeSync6(fd, buf, written, buf.length - written);
      }
      const st = fstatSync4(fd);
      return { size: st.size, ino: st.ino };
    } finally {
      closeSync7(fd);
    }
  }
  scheduleCompression() {
    if (this.compressTimer) return;
    this.compressTimer = setTimeout(() => {
      this.compressTimer = void 0;
      try {
        compressArchives(this.dir, { graceMs: this.graceMs, now: this.now() });
      } catch (err) {
        this.warn(`could not compress event log archives in ${this.dir}: ${errorMessage(err)}`);
      }
    }, this.graceMs + 250);
    this.compressTimer.unref();
  }
  warn(message) {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    try {
      this.warnFn(message);
    } catch {
    }
  }
};

// server/src/core/sync/conflicts.ts
import { promises as fsp9 } from "node:fs";
import { join as join22 } from "node:path";

// server/src/core/sync/repo.ts
import { promises as fsp8, existsSync as existsSync7, readFileSync as readFileSync9 } from "node:fs";
import { tmpdir, hostname as hostname2 } from "node:os";
import { basename as basename5, dirname as dirname8, join as join21 } from "node:path";

// server/src/core/sync/git.ts
import { spawn } from "node:child_process";
var LOCAL_TIMEOUT_MS = 6e4;
var REMOTE_TIMEOUT_MS = 12e4;
var SyncError = class extends CairnError {
  name = "SyncError";
};
function redactUrls(text2) {
  return text2.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi, (u2) => redactRemoteUrl(u2) ?? u2).replace(/\b[^\s@/'"]+:[^\s@/'"]+@(?=[^\s@:/]+[:/])/g, "");
}
function gitEnv(base = process.env) {
  const env = { ...base, GIT_TERMINAL_PROMPT: "0", GCM_INTERACTIVE: "never", LC_ALL: "C", LANG: "C" };
  if (!env.GIT_SSH_COMMAND && !env.GIT_SSH) env.GIT_SSH_COMMAND = "ssh -o BatchMode=yes";
  delete env.GIT_DIR;
  delete env.GIT_WORK_TREE;
  delete env.GIT_INDEX_FILE;
  return env;
}
function runGit(cwd, args, opts = {}) {
  const timeout = opts.timeoutMs ?? LOCAL_TIMEOUT_MS;
  return new Promise((resolve7, reject) => {
    const child = spawn("git", args, { cwd, env: opts.env ?? gitEnv(), windowsHide: true, stdio: ["pipe", "pipe", "pipe"] });
    const out2 = [];
    const err = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeout);
    child.stdout.on("data", (b) => out2.push(b));
    child.stderr.on("data", (b) => err.push(b));
    child.on("error", (e) => {
      clearTimeout(timer);
      const code = e.code;
      reject(new SyncError(code === "ENOENT" ? "git is not installed (or not on PATH): sync needs git" : `cannot run git: ${redactUrls(e.message)}`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const stderr = redactUrls(Buffer.concat(err).toString("utf8"));
      if (timedOut) resolve7({ code: 124, stdout: Buffer.concat(out2), stderr: `git ${args[0]} timed out after ${Math.round(timeout / 1e3)} s
${stderr}` });
      else resolve7({ code: code ?? 1, stdout: Buffer.concat(out2), stderr });
    });
    child.stdin.on("error", () => {
    });
    child.stdin.end(opts.input ?? "");
  });
}
async function git2(cwd, args, opts = {}) {
  const r = await runGit(cwd, args, opts);
  if (r.code !== 0) throw new SyncError(`git ${redactUrls(args.slice(0, 2).join(" "))} failed: ${firstLines(r.stderr) || `exit ${r.code}`}`);
  return r.stdout.toString("utf8");
}
function firstLines(text2, n = 3) {
  return text2.split("\n").map((l) => l.trim()).filter(Boolean).slice(0, n).join(" / ");
}
var EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
async function treeOf(cwd, commit) {
  const out2 = /* @__PURE__ */ new Map();
  if (commit === null) return out2;
  const text2 = await git2(cwd, ["ls-tree", "-r", "-z", "--full-tree", commit]);
  for (const rec of text2.split("\0")) {
    if (rec === "") continue;
    const tab = rec.indexOf("	");
    const [mode, type, sha] = rec.slice(0, tab).split(" ");
    if (type !== "blob") continue;
    out2.set(rec.slice(tab + 1), { mode, sha });
  }
  return out2;
}
async function readBlobs(cwd, shas) {
  const list2 = [...new Set(shas)];
  const out2 = /* @__PURE__ */ new Map();
  if (list2.length === 0) return out2;
  const r = await runGit(cwd, ["cat-file", "--batch"], { input: `${list2.join("\n")}
` });
  if (r.code !== 0) throw new SyncError(`git cat-file failed: ${firstLines(r.stderr)}`);
  const buf = r.stdout;
  let pos = 0;
  for (const sha of list2) {
    const nl = buf.indexOf(10, pos);
    const header = buf.subarray(pos, nl).toString("utf8");
    const [, type, size2] = header.split(" ");
    if (type === "missing" || size2 === void 0) throw new SyncError(`git object ${sha} is missing`);
    const n = Number(size2);
    out2.set(sha, buf.subarray(nl + 1, nl + 1 + n));
    pos = nl + 1 + n + 1;
  }
  return out2;
}

// server/src/core/sync/merge.ts
import { createHash as createHash4 } from "node:crypto";
var same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
function pick(base, hasBase, ours, theirs, oursNewer) {
  if (same(ours, theirs)) return ours;
  if (hasBase && same(base, ours)) return theirs;
  if (hasBase && same(base, theirs)) return ours;
  return oursNewer ? ours : theirs;
}
function mergeSet(base, ours, theirs) {
  const out2 = [];
  const b = base ? new Set(base) : null;
  const o = new Set(ours);
  const t = new Set(theirs);
  for (const s2 of [...ours, ...theirs]) {
    if (out2.includes(s2)) continue;
    const keep = b === null ? true : b.has(s2) ? o.has(s2) && t.has(s2) : true;
    if (keep) out2.push(s2);
  }
  return out2;
}
var isTomb = (r) => r.removed !== void 0;
var stamp = (r) => r.removed !== void 0 && r.removed > r.updated ? r.removed : r.updated;
function oursIsNewer(ours, theirs) {
  const a = stamp(ours.record);
  const b = stamp(theirs.record);
  if (a !== b) return a > b;
  return serializeMemory(ours.record, ours.extra) >= serializeMemory(theirs.record, theirs.extra);
}
function keyedBlocks(extra) {
  const m = /* @__PURE__ */ new Map();
  for (const text2 of extra) {
    const key = splitBlocks(text2)[0]?.key ?? `#${text2}`;
    if (!m.has(key)) m.set(key, text2);
  }
  return m;
}
function mergeExtra(base, ours, theirs, oursNewer) {
  const b = base ? keyedBlocks(base) : null;
  const o = keyedBlocks(ours);
  const t = keyedBlocks(theirs);
  const out2 = [];
  for (const key of /* @__PURE__ */ new Set([...o.keys(), ...t.keys()])) {
    const v = pick(b?.get(key), b !== null, o.get(key), t.get(key), oursNewer);
    if (v !== void 0) out2.push(v);
  }
  return out2;
}
function side(r) {
  return { updated: r.updated, body: r.body, removed: r.removed ?? null };
}
function editedSince(base, r) {
  const strip2 = (x) => {
    const { removed: _a, removed_reason: _b, removed_session: _c, ...rest } = x;
    return rest;
  };
  return !same(strip2(base), strip2(r));
}
function mergeMemory(base, ours, theirs) {
  const o = ours.record;
  const t = theirs.record;
  const b = base?.record;
  const hb = b !== void 0;
  const oursNewer = oursIsNewer(ours, theirs);
  const p = (k) => pick(b?.[k], hb, o[k], t[k], oursNewer);
  let tomb;
  if (isTomb(o) === isTomb(t)) tomb = isTomb(o);
  else if (hb && isTomb(b) === isTomb(o)) tomb = isTomb(t);
  else if (hb && isTomb(b) === isTomb(t)) tomb = isTomb(o);
  else tomb = true;
  const [n, old] = oursNewer ? [o, t] : [t, o];
  let scopes = mergeSet(b?.scopes, n.scopes, old.scopes);
  if (scopes.length === 0) scopes = [...n.scopes];
  const aliases = mergeSet(b ? b.aliases ?? [] : void 0, n.aliases ?? [], old.aliases ?? []);
  const ov = o.last_verified_at ?? "";
  const tv = t.last_verified_at ?? "";
  const bv = b?.last_verified_at ?? "";
  const verSide = ov === tv ? p("verified_head") === o.verified_head ? o : t : hb && bv === ov ? t : hb && bv === tv ? o : ov > tv ? o : t;
  const rec = {
    id: o.id,
    created: o.created < t.created ? o.created : t.created,
    updated: o.updated > t.updated ? o.updated : t.updated,
    scopes,
    confidence: p("confidence"),
    source: p("source"),
    category: p("category"),
    last_verified_at: verSide.last_verified_at,
    expires: p("expires"),
    origin: p("origin"),
    body: p("body")
  };
  if (verSide.verified_head) rec.verified_head = verSide.verified_head;
  if (aliases.length > 0) rec.aliases = aliases;
  const mergedFrom = mergeSet(void 0, n.merged_from ?? [], old.merged_from ?? []);
  if (mergedFrom.length > 0) rec.merged_from = mergedFrom;
  if (tomb) {
    const from = isTomb(o) && isTomb(t) ? null : isTomb(o) ? o : t;
    rec.removed = from ? from.removed : p("removed");
    rec.removed_reason = from ? from.removed_reason ?? "" : p("removed_reason") ?? "";
    rec.removed_session = from ? from.removed_session ?? null : p("removed_session") ?? null;
  }
  const extra = mergeExtra(base?.extra, ours.extra, theirs.extra, oursNewer);
  let conflict = null;
  const bodyClash = o.body !== t.body && (!hb || b.body !== o.body && b.body !== t.body);
  if (hb && !isTomb(b) && isTomb(o) !== isTomb(t)) {
    const live2 = isTomb(o) ? t : o;
    const dead = isTomb(o) ? o : t;
    if (editedSince(b, live2)) conflict = { id: rec.id, kind: "removed-edited", kept: side(dead), other: side(live2) };
  } else if (bodyClash) {
    const [kept, other] = rec.body === o.body ? [o, t] : [t, o];
    conflict = { id: rec.id, kind: "body", kept: side(kept), other: side(other) };
  }
  return { merged: { record: rec, extra }, conflict };
}
function conflictFileName(c) {
  const h = createHash4("sha256").update(`${c.kind}\0${[c.kept.body, c.other.body].sort().join("\0")}`).digest("hex").slice(0, 10);
  return `${c.id}-${h}.json`;
}
function conflictFileText(c) {
  return `${JSON.stringify({ schema_version: 1, ...c }, null, 2)}
`;
}

// server/src/core/sync/repo.ts
var GITIGNORE_LINES = [".cache/", ".events.jsonl*", ".events-*.jsonl*", ".pending/", ".lock", "*.tmp", "*.claim", ".events.lock"];
var GITATTRIBUTES_LINES = ["/*.md merge=cairn", "/.tombstones/*.md merge=cairn"];
var CONFLICTS_DIR = ".conflicts";
var WRITE_CONCURRENCY = 16;
var TOMB = ".tombstones";
function isMemoryTreePath(p) {
  const slash = p.indexOf("/");
  const name = slash === -1 ? p : p.slice(slash + 1);
  if (slash !== -1 && p.slice(0, slash) !== TOMB) return false;
  return name.endsWith(".md") && !name.startsWith(".") && !name.includes("/");
}
function safeTreePath(p) {
  const parts = p.split("/");
  if (p.startsWith("/") || p.includes("\\") || p.includes("\0")) return false;
  if (!parts.every((s2) => s2 !== "" && s2 !== "." && s2 !== ".." && s2.toLowerCase() !== ".git")) return false;
  const top = parts[0];
  return !(top === ".cache" || top === ".pending" || top === ".lock" || top.startsWith(".events") || /\.(tmp|claim)$/.test(p));
}
async function headCommit(dir) {
  const r = await runGit(dir, ["rev-parse", "--verify", "-q", "HEAD^{commit}"]);
  return r.code === 0 ? r.stdout.toString().trim() : null;
}
async function currentBranch2(dir) {
  const r = await runGit(dir, ["symbolic-ref", "--short", "-q", "HEAD"]);
  const b = r.stdout.toString().trim();
  if (r.code !== 0 || b === "") throw new SyncError(`the store repository at ${dir} is not on a branch (detached HEAD): check out a branch there (git -C ${dir} switch main)`);
  return b;
}
async function repoTop(dir) {
  const r = await runGit(dir, ["rev-parse", "--show-toplevel"]);
  return r.code === 0 ? r.stdout.toString().trim() : null;
}
async function remoteUrl(dir) {
  const r = await runGit(dir, ["config", "--get", "remote.origin.url"]);
  const u2 = r.stdout.toString().trim();
  return r.code === 0 && u2 !== "" ? u2 : null;
}
async function isAncestor(dir, a, b) {
  return (await runGit(dir, ["merge-base", "--is-ancestor", a, b])).code === 0;
}
async function revParse(dir, ref2) {
  const r = await runGit(dir, ["rev-parse", "--verify", "-q", `${ref2}^{commit}`]);
  return r.code === 0 ? r.stdout.toString().trim() : null;
}
async function identityEnv(dir, base) {
  const r = await runGit(dir, ["var", "GIT_COMMITTER_IDENT"]);
  if (r.code === 0) return base;
  const host = hostname2().replace(/[<>\n]/g, "") || "localhost";
  return { ...base, GIT_AUTHOR_NAME: `cairn on ${host}`, GIT_AUTHOR_EMAIL: `cairn@${host}`, GIT_COMMITTER_NAME: `cairn on ${host}`, GIT_COMMITTER_EMAIL: `cairn@${host}` };
}
var shq = (s2) => `'${s2.replace(/'/g, `'\\''`)}'`;
async function registerMergeDriver(cwd, argv) {
  const driver = `${argv.map(shq).join(" ")} merge-driver %O %A %B %P`;
  await git2(cwd, ["config", "merge.cairn.name", "cairn memory merge (field by field, by id)"]);
  await git2(cwd, ["config", "merge.cairn.driver", driver]);
  return driver;
}
async function ensureLines(file, lines, header) {
  const cur = existsSync7(file) ? readFileSync9(file, "utf8") : "";
  const have = new Set(cur.split(/\r?\n/).map((l) => l.trim()));
  const missing = lines.filter((l) => !have.has(l));
  if (missing.length === 0) return false;
  const sepNl = cur === "" || cur.endsWith("\n") ? "" : "\n";
  await writeFileAtomic(file, `${cur}${sepNl}${cur === "" ? `${header}
` : ""}${missing.join("\n")}
`, 420);
  return true;
}
var emptySummary = () => ({ added: [], updated: [], removed: [], restored: [], purged: [], files: [] });
var changeCount = (s2) => s2.added.length + s2.updated.length + s2.removed.length + s2.restored.length + s2.purged.length + s2.files.length;
function parseMem(buf) {
  if (!buf) return null;
  try {
    const { record, extra } = parseMemoryText(buf.toString("utf8"));
    if (record.id === null || record.created === null || record.updated === null) return null;
    return { record: { ...record, id: record.id, created: record.created, updated: record.updated }, extra };
  } catch {
    return null;
  }
}
async function describeDiff(dir, from, to, cached) {
  const args = ["diff", "--raw", "-z", "--no-renames", "--no-abbrev"];
  if (cached) args.push("--cached", from ?? EMPTY_TREE);
  else args.push(from ?? EMPTY_TREE, to);
  const raw = await git2(dir, args);
  const parts = raw.split("\0");
  const rows = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i].split(" ");
    rows.push({ path: parts[i + 1], oldSha: meta[2], newSha: meta[3] });
  }
  const zero = /^0+$/;
  const mems = rows.filter((r) => isMemoryTreePath(r.path));
  const blobs = await readBlobs(dir, mems.flatMap((r) => [r.oldSha, r.newSha].filter((s2) => !zero.test(s2))));
  const out2 = emptySummary();
  const byId2 = /* @__PURE__ */ new Map();
  for (const r of rows) {
    const o = zero.test(r.oldSha) ? null : parseMem(blobs.get(r.oldSha));
    const n = zero.test(r.newSha) ? null : parseMem(blobs.get(r.newSha));
    if (!isMemoryTreePath(r.path) || !o && !n) {
      out2.files.push(r.path);
      continue;
    }
    for (const [m, k] of [[o, "old"], [n, "neu"]]) {
      if (!m) continue;
      const e = byId2.get(m.record.id) ?? {};
      e[k] = m;
      byId2.set(m.record.id, e);
    }
  }
  for (const [id, { old, neu }] of [...byId2].sort((a, b) => a[0].localeCompare(b[0]))) {
    const summary = summarize((neu ?? old).record.body, 70);
    const e = { id, summary };
    if (!old) out2.added.push(e);
    else if (!neu) out2.purged.push(e);
    else if (old.record.removed === void 0 && neu.record.removed !== void 0) out2.removed.push(e);
    else if (old.record.removed !== void 0 && neu.record.removed === void 0) out2.restored.push(e);
    else out2.updated.push(e);
  }
  return out2;
}
var MESSAGE_LINES = 400;
function commitMessage(s2, host) {
  const counts = ["added", "updated", "removed", "restored", "purged"].filter((k) => s2[k].length > 0).map((k) => `${s2[k].length} ${k}`);
  if (s2.files.length > 0) counts.push(`${s2.files.length} other file${s2.files.length === 1 ? "" : "s"}`);
  const lines = [];
  for (const k of ["added", "updated", "removed", "restored", "purged"]) for (const e of s2[k]) lines.push(`${k.padEnd(8)} ${e.id}  ${e.summary}`);
  for (const f of s2.files) lines.push(`file     ${f}`);
  const shown2 = lines.slice(0, MESSAGE_LINES);
  if (lines.length > MESSAGE_LINES) shown2.push(`... and ${lines.length - MESSAGE_LINES} more`);
  return `cairn sync (${host}): ${counts.join(", ") || "no changes"}

${shown2.join("\n")}
`;
}
async function commitLocal(dir, env, host) {
  await git2(dir, ["add", "-A", "--", "."]);
  const stray = (await git2(dir, ["ls-files", "-z"])).split("\0").filter((p) => p !== "" && !safeTreePath(p));
  for (let i = 0; i < stray.length; i += 500) await git2(dir, ["rm", "-q", "--cached", "--ignore-unmatch", "--", ...stray.slice(i, i + 500)]);
  const head = await headCommit(dir);
  const quiet = await runGit(dir, ["diff", "--cached", "--quiet", head ?? EMPTY_TREE]);
  if (quiet.code === 0) return null;
  const changes = await describeDiff(dir, head, "", true);
  const tree = (await git2(dir, ["write-tree"])).trim();
  const commit = (await git2(dir, ["commit-tree", tree, ...head ? ["-p", head] : [], "-F", "-"], { input: commitMessage(changes, host), env })).trim();
  await updateBranch(dir, commit, head);
  return { commit, changes };
}
async function updateBranch(dir, commit, old) {
  const branch = await currentBranch2(dir);
  await git2(dir, ["update-ref", "-m", "cairn sync", `refs/heads/${branch}`, commit, old ?? "0".repeat(40)]);
}
async function mergeTrees(dir, base, ours, theirs) {
  const [B, O, T] = await Promise.all([treeOf(dir, base), treeOf(dir, ours), treeOf(dir, theirs)]);
  const touched = /* @__PURE__ */ new Set();
  for (const M of [O, T]) for (const [p, e] of M) if (B.get(p)?.sha !== e.sha) touched.add(p);
  for (const [p, e] of B) if (O.get(p)?.sha !== e.sha || T.get(p)?.sha !== e.sha) touched.add(p);
  const memPaths = [...touched].filter(isMemoryTreePath);
  const shas = [];
  for (const p of memPaths) for (const M of [B, O, T]) {
    const e = M.get(p);
    if (e) shas.push(e.sha);
  }
  const blobs = await readBlobs(dir, shas);
  const parsed = /* @__PURE__ */ new Map();
  const memOfSha = (sha) => {
    if (!parsed.has(sha)) parsed.set(sha, parseMem(blobs.get(sha)));
    return parsed.get(sha);
  };
  const pathLevel = [...touched].filter((p) => !isMemoryTreePath(p));
  const groups = /* @__PURE__ */ new Map();
  for (const p of memPaths) {
    const vs = [[B, "b"], [O, "o"], [T, "t"]].map(([M, k]) => ({ k, e: M.get(p) }));
    if (vs.some(({ e }) => e && !memOfSha(e.sha))) {
      pathLevel.push(p);
      continue;
    }
    for (const { k, e } of vs) {
      if (!e) continue;
      const mem2 = memOfSha(e.sha);
      const g = groups.get(mem2.record.id) ?? {};
      if (g[k] === void 0) g[k] = { path: p, sha: e.sha, mem: mem2 };
      groups.set(mem2.record.id, g);
    }
  }
  const changes = /* @__PURE__ */ new Map();
  const present = new Set(O.keys());
  const put = (p, data) => {
    changes.set(p, data);
    if (data === null) present.delete(p);
    else present.add(p);
  };
  const conflicts = [];
  const fileConflicts = [];
  let incoming = 0;
  const eq = (x, y) => x?.path === y?.path && x?.sha === y?.sha;
  for (const [id, { b, o, t }] of [...groups].sort((x, y) => x[0].localeCompare(y[0]))) {
    if (eq(o, t) || eq(b, t)) continue;
    if (eq(b, o) || !o) {
      if (o && o.path !== t?.path) put(o.path, null);
      if (t) put(t.path, blobs.get(t.sha));
      incoming++;
      continue;
    }
    if (!t) continue;
    const { merged, conflict } = mergeMemory(b?.mem ?? null, o.mem, t.mem);
    const text2 = Buffer.from(serializeMemory(merged.record, merged.extra));
    const wantDir = merged.record.removed !== void 0 ? TOMB : "";
    const inDir = (v) => (dirname8(v.path) === "." ? "" : dirname8(v.path)) === wantDir;
    let target = inDir(o) ? o.path : inDir(t) ? t.path : (wantDir ? `${wantDir}/` : "") + basename5(o.path);
    if (target !== o.path && target !== t.path && present.has(target)) target = target.replace(/\.md$/, `-${id.slice(-6).toLowerCase()}.md`);
    if (o.path !== target) put(o.path, null);
    put(target, text2);
    incoming++;
    if (conflict) {
      conflicts.push(conflict);
      put(`${CONFLICTS_DIR}/${conflictFileName(conflict)}`, Buffer.from(conflictFileText(conflict)));
    }
  }
  const theirsWhole = [];
  const needText = [];
  for (const p of pathLevel) {
    const b = B.get(p);
    const o = O.get(p);
    const t = T.get(p);
    if (o?.sha === t?.sha || b?.sha === t?.sha) continue;
    if (b?.sha === o?.sha || !o) {
      if (t) theirsWhole.push(p);
      else put(p, null);
      incoming++;
      continue;
    }
    if (!t) continue;
    needText.push({ p, ...b ? { b } : {}, o, t });
  }
  const blobs2 = await readBlobs(dir, [...theirsWhole.map((p) => T.get(p).sha), ...needText.flatMap((n) => [n.o.sha, n.t.sha, ...n.b ? [n.b.sha] : []])]);
  for (const p of theirsWhole) put(p, blobs2.get(T.get(p).sha));
  for (const n of needText) {
    const merged = await textMerge(blobs2.get(n.o.sha), n.b ? blobs2.get(n.b.sha) : Buffer.alloc(0), blobs2.get(n.t.sha));
    if (merged !== null) put(n.p, merged);
    else {
      const saved = `${CONFLICTS_DIR}/files/${n.p.split("/").join("__")}.${n.t.sha.slice(0, 8)}`;
      put(saved, blobs2.get(n.t.sha));
      fileConflicts.push(n.p);
    }
    incoming++;
  }
  return { changes, conflicts, fileConflicts, incoming };
}
async function textMerge(ours, base, theirs) {
  if (ours.includes(0) || theirs.includes(0) || base.includes(0)) return null;
  const tmp = await fsp8.mkdtemp(join21(tmpdir(), "cairn-merge-"));
  try {
    const [o, b, t] = ["ours", "base", "theirs"].map((n) => join21(tmp, n));
    await Promise.all([fsp8.writeFile(o, ours), fsp8.writeFile(b, base), fsp8.writeFile(t, theirs)]);
    const r = await runGit(tmp, ["merge-file", "-p", o, b, t]);
    return r.code === 0 ? r.stdout : null;
  } finally {
    await fsp8.rm(tmp, { recursive: true, force: true });
  }
}
async function treeDiff(dir, from, to) {
  const [F, T] = await Promise.all([treeOf(dir, from), treeOf(dir, to)]);
  const changes = /* @__PURE__ */ new Map();
  const want = [];
  for (const [p, e] of T) if (F.get(p)?.sha !== e.sha) want.push(p);
  const blobs = await readBlobs(dir, want.map((p) => T.get(p).sha));
  for (const p of want) changes.set(p, blobs.get(T.get(p).sha));
  for (const p of F.keys()) if (!T.has(p)) changes.set(p, null);
  return changes;
}
async function applyChanges(dir, changes, warn) {
  let n = 0;
  const writes = [...changes].filter(([p, d]) => d !== null && safeTreePath(p));
  for (const [p, d] of changes) if (!safeTreePath(p) && d !== null) warn(`sync skipped ${JSON.stringify(p)}: not a path cairn writes`);
  const deletes = new Set([...changes].filter(([p, d]) => d === null && safeTreePath(p)).map(([p]) => p));
  const deletedById = /* @__PURE__ */ new Map();
  for (const p of deletes) {
    if (!isMemoryTreePath(p)) continue;
    const mem2 = parseMem(await fsp8.readFile(join21(dir, ...p.split("/"))).catch(() => void 0));
    if (mem2) deletedById.set(mem2.record.id, p);
  }
  const made = /* @__PURE__ */ new Set();
  const one = async ([p, data]) => {
    const file = join21(dir, ...p.split("/"));
    const parent = dirname8(file);
    if (!made.has(parent)) {
      await ensureDir(parent);
      made.add(parent);
    }
    const id = isMemoryTreePath(p) ? parseMem(data)?.record.id : void 0;
    const from = id === void 0 ? void 0 : deletedById.get(id);
    if (from !== void 0 && deletes.has(from)) {
      deletes.delete(from);
      const src = join21(dir, ...from.split("/"));
      await writeFileAtomic(src, data);
      await fsp8.rename(src, file);
    } else {
      await writeFileAtomic(file, data);
    }
    n++;
  };
  let next2 = 0;
  await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, writes.length) }, async () => {
    while (next2 < writes.length) await one(writes[next2++]);
  }));
  for (const p of deletes) {
    await fsp8.rm(join21(dir, ...p.split("/")), { force: true });
    n++;
  }
  return n;
}
async function aheadBehind(dir, branch) {
  const theirs = await revParse(dir, `refs/remotes/origin/${branch}`);
  const head = await headCommit(dir);
  if (!head) return { ahead: 0, behind: theirs ? Number((await git2(dir, ["rev-list", "--count", theirs])).trim()) : 0, tracking: theirs !== null };
  if (!theirs) return { ahead: Number((await git2(dir, ["rev-list", "--count", head])).trim()), behind: 0, tracking: false };
  const [a, b] = (await git2(dir, ["rev-list", "--left-right", "--count", `${head}...${theirs}`])).trim().split(/\s+/).map(Number);
  return { ahead: a ?? 0, behind: b ?? 0, tracking: true };
}
async function dirtyPaths(dir) {
  const out2 = await git2(dir, ["status", "--porcelain", "-z", "--untracked-files=all"]);
  const paths = [];
  const parts = out2.split("\0");
  for (let i = 0; i < parts.length; i++) {
    const rec = parts[i];
    if (rec === "") continue;
    paths.push(rec.slice(3));
    if (rec[0] === "R" || rec[0] === "C") i++;
  }
  return paths;
}

// server/src/core/sync/conflicts.ts
async function listConflicts(storeDir) {
  const dir = join22(storeDir, CONFLICTS_DIR);
  const names = await fsp9.readdir(dir).catch(() => []);
  const memories = [];
  for (const n of names.sort()) {
    if (!n.endsWith(".json")) continue;
    try {
      const doc = JSON.parse(await fsp9.readFile(join22(dir, n), "utf8"));
      if (typeof doc.id !== "string" || !doc.kept || !doc.other) continue;
      memories.push({ id: doc.id, kind: doc.kind, kept: doc.kept, other: doc.other, file: `${CONFLICTS_DIR}/${n}` });
    } catch {
    }
  }
  const fileNames = await fsp9.readdir(join22(dir, "files")).catch(() => []);
  const files = fileNames.sort().map((n) => ({ file: `${CONFLICTS_DIR}/files/${n}` }));
  return { memories, files };
}

// server/src/core/curation/usage.ts
var USE_OUTCOMES = ["applied", "ignored", "contradicted", "corrected"];
var strings = (v) => Array.isArray(v) ? v.filter((x) => typeof x === "string") : [];
var actorOf = (e) => e.actor === "user" ? "user" : "model";
function retrievalsOf(e) {
  if (e.kind === "show") return strings(e.ids).map((id) => ({ id, strong: true }));
  if (e.kind !== "search") return [];
  const rows = Array.isArray(e.hits) ? e.hits : Array.isArray(e.results) ? e.results : [];
  const out2 = [];
  for (const r of rows) {
    const id = typeof r === "string" ? r : r?.id;
    if (typeof id !== "string") continue;
    const rel = typeof r === "object" && r !== null ? r.relevance : void 0;
    out2.push({ id, strong: rel === "medium" || rel === "high" });
  }
  return out2;
}
function retrievedIds(e) {
  return retrievalsOf(e).map((r) => r.id);
}
function useOf(e) {
  if (e.kind !== "use") return null;
  const outcome = e.outcome;
  if (!USE_OUTCOMES.includes(outcome)) return null;
  const ids2 = strings(e.ids ?? e.memory_ids);
  return { ids: ids2, outcome, ...typeof e.note === "string" ? { note: e.note } : {} };
}
function emptyUsage() {
  return {
    retrievedInWindow: 0,
    strongInWindow: 0,
    lastRetrieved: null,
    userLookupsInWindow: 0,
    uses: { applied: 0, ignored: 0, contradicted: 0, corrected: 0 },
    appliedInWindow: 0,
    lastApplied: null,
    timeline: []
  };
}
function foldUsage(events2, windowStart, known) {
  const byId2 = /* @__PURE__ */ new Map();
  const get2 = (id) => {
    let u2 = byId2.get(id);
    if (!u2) byId2.set(id, u2 = emptyUsage());
    return u2;
  };
  const fold = {
    byId: byId2,
    eventsInWindow: 0,
    retrievalsInWindow: 0,
    userLookupsInWindow: 0,
    usesInWindow: { applied: 0, ignored: 0, contradicted: 0, corrected: 0 },
    orphanEvents: 0,
    orphanIds: []
  };
  const orphanIds = /* @__PURE__ */ new Set();
  for (const e of events2) {
    const t = Date.parse(e.ts);
    const inWindow = t >= windowStart;
    if (inWindow) fold.eventsInWindow++;
    const session = typeof e.session === "string" ? e.session : void 0;
    const byUser = actorOf(e) === "user";
    for (const { id, strong } of retrievalsOf(e)) {
      const u2 = get2(id);
      if (byUser) {
        if (inWindow) {
          u2.userLookupsInWindow++;
          fold.userLookupsInWindow++;
        }
        continue;
      }
      u2.lastRetrieved = e.ts;
      if (inWindow) {
        u2.retrievedInWindow++;
        if (strong) u2.strongInWindow++;
        fold.retrievalsInWindow++;
      }
    }
    const use = useOf(e);
    if (use) {
      let orphan = false;
      let knownIds = 0;
      for (const id of use.ids) {
        if (!known.has(id)) {
          orphan = true;
          orphanIds.add(id);
          continue;
        }
        knownIds++;
        const u2 = get2(id);
        u2.uses[use.outcome]++;
        if (use.outcome === "applied") {
          u2.lastApplied = e.ts;
          if (inWindow) u2.appliedInWindow++;
        }
        if (use.outcome === "contradicted" || use.outcome === "corrected") {
          u2.timeline.push({ ts: e.ts, event: use.outcome, ...use.note ? { note: use.note } : {}, ...session ? { session } : {} });
        }
      }
      if (inWindow) fold.usesInWindow[use.outcome] += knownIds;
      if (orphan) fold.orphanEvents++;
    }
    if ((e.kind === "update" || e.kind === "verify") && typeof e.id === "string") {
      const note = typeof e.note === "string" ? e.note : void 0;
      get2(e.id).timeline.push({
        ts: e.ts,
        event: e.kind === "update" ? "updated" : "verified",
        ...note ? { note } : {},
        ...session ? { session } : {}
      });
    }
  }
  fold.orphanIds = [...orphanIds].sort();
  return fold;
}
function markerLabels(v) {
  if (!Array.isArray(v)) return [];
  return v.map((m) => typeof m === "string" ? m : m?.marker).filter((m) => typeof m === "string");
}
function markerStats(events2) {
  const stats = /* @__PURE__ */ new Map();
  const pending = /* @__PURE__ */ new Map();
  const stat = (m) => {
    let s2 = stats.get(m);
    if (!s2) stats.set(m, s2 = { fires: 0, overrides: 0 });
    return s2;
  };
  for (const e of events2) {
    const family = e.kind === "write" ? "write" : e.kind === "update" || e.kind === "update_refused" ? "update" : null;
    if (family === null) continue;
    const markers = markerLabels(e.markers ?? e.transient_markers);
    if (markers.length === 0) continue;
    const key = (m) => `${family}\0${String(e.session)}\0${m}`;
    const warning = e.kind === "update_refused" || e.kind === "write" && e.status === "transient_warning";
    const override = e.acknowledge_transient === true && (e.kind === "update" || e.status === "committed" || e.status === "pending");
    if (warning) {
      for (const m of markers) {
        stat(m).fires++;
        pending.set(key(m), (pending.get(key(m)) ?? 0) + 1);
      }
    } else if (override) {
      for (const m of markers) {
        const s2 = stat(m);
        s2.overrides++;
        const open = pending.get(key(m)) ?? 0;
        if (open > 0) pending.set(key(m), open - 1);
        else s2.fires++;
      }
    }
  }
  return [...stats].map(([marker, s2]) => ({ marker, ...s2, override_rate: s2.fires ? Math.round(s2.overrides / s2.fires * 1e3) / 1e3 : null })).sort((a, b) => b.fires - a.fires || a.marker.localeCompare(b.marker));
}

// server/src/core/curation/rareScopes.ts
function editDistance(a, b, max = Infinity) {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}
function typoBudget(a, b) {
  const len = Math.min(a.length, b.length);
  return len >= 6 ? 2 : len >= 3 ? 1 : 0;
}
var COMMON_SHORT_SCOPES = /* @__PURE__ */ new Set([
  "api",
  "app",
  "apps",
  "cli",
  "web",
  "ui",
  "ux",
  "db",
  "dbs",
  "ops",
  "infra",
  "docs",
  "doc",
  "test",
  "tests",
  "ci",
  "cd",
  "dev",
  "prod",
  "qa",
  "ml",
  "ai",
  "ios",
  "mac",
  "os",
  "sdk",
  "cdn",
  "dns",
  "ssh",
  "tls",
  "ssl",
  "vpn",
  "aws",
  "gcp",
  "k8s",
  "git",
  "go",
  "js",
  "ts",
  "py",
  "rb",
  "css",
  "sql",
  "data",
  "auth",
  "logs",
  "log",
  "bugs",
  "bug",
  "perf",
  "sec",
  "mobile",
  "lint",
  "deps",
  "env",
  "envs",
  "sre",
  "hr",
  "pm",
  "design",
  "build",
  "code",
  "ide",
  "vim",
  "repo",
  "team",
  "org",
  "work",
  "home",
  "mail",
  "chat",
  "blog",
  "site",
  "www",
  "etl",
  "llm",
  "gpu",
  "cpu",
  "ram",
  "io"
]);
function isTransposition(a, b) {
  if (a.length !== b.length) return false;
  const diff = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff.push(i);
  return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]];
}
function isTypoPair(a, b) {
  if (a === b || COMMON_SHORT_SCOPES.has(a) && COMMON_SHORT_SCOPES.has(b)) return false;
  const sa = a.split(/[:-]/);
  const sb = b.split(/[:-]/);
  if (sa.length > 1 && sa.length === sb.length) {
    const differing = sa.map((x, i) => [x, sb[i]]).filter(([x, y]) => x !== y);
    if (differing.length === 1) {
      const [x, y] = differing[0];
      if (x.length <= 4 && y.length <= 4) return isShortTypoPair(x, y);
    }
  }
  if (a.length <= 4 && b.length <= 4) return isShortTypoPair(a, b);
  const budget = Math.min(2, typoBudget(a, b));
  return budget > 0 && editDistance(a, b, budget) <= budget;
}
function isShortTypoPair(a, b) {
  if (COMMON_SHORT_SCOPES.has(a) && COMMON_SHORT_SCOPES.has(b)) return false;
  return isTransposition(a, b) || a === `${b}s` || b === `${a}s`;
}
function rareScopes(counts, owner) {
  const all = [...counts.keys()];
  const rows = [];
  for (const [scope, n] of counts) {
    if (n !== 1) continue;
    const similar = [];
    for (const other of all) {
      if (other === scope) continue;
      if (!isTypoPair(scope, other)) continue;
      similar.push({ scope: other, count: counts.get(other), distance: editDistance(scope, other) });
    }
    if (similar.length === 0) continue;
    similar.sort((a, b) => b.count - a.count || a.distance - b.distance || a.scope.localeCompare(b.scope));
    rows.push({ scope, id: owner.get(scope), similar_to: similar });
  }
  return rows.sort((a, b) => b.similar_to[0].count - a.similar_to[0].count || a.scope.localeCompare(b.scope));
}

// server/src/core/curation/health.ts
var DEFAULT_HEALTH_PARAMS = { window_days: 30, top_k: 10, min_applied: 3 };
var DEFAULT_DEAD_WEIGHT = { min_age_days: 14, min_retrievals: 3 };
var DAY_MS3 = 864e5;
var TIMELINE_MAX = 20;
var LOGGED_MATCH_MS = 6e4;
var row = (m) => ({ id: m.id, scopes: m.scopes, summary: summarize(m.body) });
var later = (a, b) => a === null ? b : b === null ? a : Date.parse(a) >= Date.parse(b) ? a : b;
var section2 = (all, k) => ({ count: all.length, rows: all.slice(0, k) });
function contradiction(m, u2) {
  const tl = u2?.timeline ?? [];
  const lastContra = [...tl].reverse().find((t) => t.event === "contradicted");
  if (!lastContra) return null;
  let resolved = later(m.updated === m.created ? null : m.updated, m.last_verified_at);
  for (const t of tl) if (t.event === "updated" || t.event === "verified") resolved = later(resolved, t.ts);
  if (resolved !== null && Date.parse(resolved) >= Date.parse(lastContra.ts)) return null;
  const timeline = [{ ts: m.created, event: "created" }, ...tl];
  const logged = (ev, ts) => ts === null || tl.some((t) => t.event === ev && Math.abs(Date.parse(t.ts) - Date.parse(ts)) <= LOGGED_MATCH_MS);
  if (m.updated !== m.created && !logged("updated", m.updated)) timeline.push({ ts: m.updated, event: "updated" });
  if (!logged("verified", m.last_verified_at)) timeline.push({ ts: m.last_verified_at, event: "verified" });
  timeline.sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
  const since = resolved === null ? -Infinity : Date.parse(resolved);
  return {
    contradictions: tl.filter((t) => t.event === "contradicted" && Date.parse(t.ts) > since).length,
    last_contradicted: lastContra.ts,
    last_resolved: resolved,
    resolution_timeline: timeline.slice(-TIMELINE_MAX)
  };
}
function deadWeight(m, u2, now, windowDays, rule) {
  const ageDays = Math.floor((now - Date.parse(m.created)) / DAY_MS3);
  if (!(ageDays >= rule.min_age_days)) return null;
  const strong = u2?.strongInWindow ?? 0;
  if (strong < rule.min_retrievals || (u2?.uses.applied ?? 0) > 0) return null;
  const times = (n) => n === 1 ? "once" : `${n} times`;
  const looked = u2?.userLookupsInWindow ? `; your own ${u2.userLookupsInWindow} lookup(s) not counted` : "";
  return {
    retrieved: strong,
    last_retrieved: u2?.lastRetrieved ?? null,
    age_days: ageDays,
    user_lookups: u2?.userLookupsInWindow ?? 0,
    why: `${ageDays} days old (at least ${rule.min_age_days}); found by the model ${times(strong)} at medium or high relevance in the last ${windowDays} days (at least ${rule.min_retrievals}); never applied${looked}`
  };
}
function computeHealth(data, params = DEFAULT_HEALTH_PARAMS) {
  const { window_days, top_k, min_applied } = params;
  const rule = data.deadWeight ?? DEFAULT_DEAD_WEIGHT;
  const now = data.now.getTime();
  const windowStart = now - window_days * DAY_MS3;
  const known = /* @__PURE__ */ new Set([...data.active.map((m) => m.id), ...data.tombstones.map((m) => m.id), ...data.alsoKnown ?? []]);
  const fold = foldUsage(data.events, windowStart, known);
  const usage = (id) => fold.byId.get(id);
  const isExpired2 = (m) => m.expires !== null && Date.parse(m.expires) <= now;
  const live2 = data.active.filter((m) => !isExpired2(m));
  const contradicted = [];
  const dead = [];
  const cold = [];
  const heavy = [];
  const flags = /* @__PURE__ */ new Map();
  for (const m of data.active) {
    const u2 = usage(m.id);
    const c = contradiction(m, u2);
    if (c) contradicted.push({ ...row(m), ...c });
    const f = { dead: false, cold: false, contradicted: c !== null, applied: u2?.appliedInWindow ?? 0 };
    flags.set(m.id, f);
    if (isExpired2(m)) continue;
    const retrieved = u2?.retrievedInWindow ?? 0;
    const d = deadWeight(m, u2, now, window_days, rule);
    if (d) {
      f.dead = true;
      dead.push({ ...row(m), ...d });
    }
    const created = Date.parse(m.created);
    if (retrieved === 0 && created < windowStart) {
      f.cold = true;
      cold.push({ ...row(m), created: m.created, age_days: Math.floor((now - created) / DAY_MS3), last_retrieved: u2?.lastRetrieved ?? null });
    }
    if (f.applied >= min_applied) heavy.push({ ...row(m), applied: f.applied, last_applied: u2?.lastApplied ?? null });
  }
  contradicted.sort((a, b) => b.contradictions - a.contradictions || b.last_contradicted.localeCompare(a.last_contradicted) || a.id.localeCompare(b.id));
  dead.sort((a, b) => b.retrieved - a.retrieved || a.id.localeCompare(b.id));
  cold.sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
  heavy.sort((a, b) => b.applied - a.applied || a.id.localeCompare(b.id));
  const counts = /* @__PURE__ */ new Map();
  const owner = /* @__PURE__ */ new Map();
  const perScope = /* @__PURE__ */ new Map();
  for (const m of data.active) {
    const f = flags.get(m.id);
    for (const s2 of m.scopes) {
      counts.set(s2, (counts.get(s2) ?? 0) + 1);
      owner.set(s2, m.id);
      let h = perScope.get(s2);
      if (!h) perScope.set(s2, h = { scope: s2, active: 0, dead: 0, cold: 0, contradicted: 0, applied: 0 });
      h.active++;
      if (f.dead) h.dead++;
      if (f.cold) h.cold++;
      if (f.contradicted) h.contradicted++;
      h.applied += f.applied;
    }
  }
  const rare = rareScopes(counts, owner);
  const debt = { never: 0, stale: 0, fresh: 0 };
  const debtRows = [];
  for (const m of data.active) {
    const v = verificationOf(m.last_verified_at, data.now, data.staleAfterDays);
    debt[v.status]++;
    if (v.status !== "fresh") debtRows.push({ ...row(m), status: v.status, age_days: v.age_days });
  }
  debtRows.sort((a, b) => a.status === b.status ? (b.age_days ?? 0) - (a.age_days ?? 0) || a.id.localeCompare(b.id) : a.status === "never" ? -1 : 1);
  const drift = [];
  if (data.commitDrift) {
    for (const m of data.active) {
      const n = data.commitDrift.commitsSinceVerify.get(m.id);
      if (n !== void 0 && n > 0 && m.last_verified_at) drift.push({ ...row(m), commits_since_verify: n, last_verified_at: m.last_verified_at });
    }
    drift.sort((a, b) => b.commits_since_verify - a.commits_since_verify || a.id.localeCompare(b.id));
  }
  const expired = data.active.filter(isExpired2).map((m) => ({ ...row(m), expires: m.expires })).sort((a, b) => a.expires.localeCompare(b.expires) || a.id.localeCompare(b.id));
  const orphaned = /* @__PURE__ */ new Map();
  const oc = data.origins ?? null;
  if (oc) {
    const known2 = new Set(oc.known_remotes.map((u2) => normalizeRepoUrl(u2)));
    for (const m of [...data.active, ...data.tombstones]) {
      if (m.origin.repo === null || m.origin.worktree_root !== oc.root) continue;
      const key = normalizeRepoUrl(m.origin.repo);
      if (key === null || known2.has(key)) continue;
      let g = orphaned.get(key);
      if (!g) orphaned.set(key, g = { repo: m.origin.repo, ids: [] });
      g.ids.push(m.id);
    }
  }
  const target = oc?.known_remotes[0] ?? "<new remote URL>";
  const orphanRows = [...orphaned.values()].sort((a, b) => b.ids.length - a.ids.length || a.repo.localeCompare(b.repo)).map((g) => ({ repo: g.repo, count: g.ids.length, ids: g.ids.sort().slice(0, top_k), fix: `cairn migrate-origin --from ${g.repo} --to ${target} --apply` }));
  return {
    generated_at: data.now.toISOString(),
    window_days,
    top_k,
    min_applied,
    totals: {
      active: data.active.length,
      expired: expired.length,
      tombstoned: data.tombstones.length,
      scopes: counts.size,
      events: data.events.length,
      events_in_window: fold.eventsInWindow,
      retrievals_in_window: fold.retrievalsInWindow,
      user_lookups_in_window: fold.userLookupsInWindow,
      uses_in_window: fold.usesInWindow
    },
    contradicted: section2(contradicted, top_k),
    dead_weight: { ...section2(dead, top_k), rule: { ...rule, relevance: ["medium", "high"], actor: "model" } },
    rare_scopes: section2(rare, top_k),
    verification_debt: { ...debt, rows: debtRows.slice(0, top_k) },
    commit_drift_debt: { applies: data.commitDrift !== null, repo: data.commitDrift?.repo ?? null, count: drift.length, rows: drift.slice(0, top_k) },
    expired: section2(expired, top_k),
    cold: section2(cold, top_k),
    heavily_used: section2(heavy, top_k),
    scope_health: [...perScope.values()].sort((a, b) => a.scope.localeCompare(b.scope)),
    marker_stats: markerStats(data.events),
    orphan_use_events: { count: fold.orphanEvents, ids: fold.orphanIds.slice(0, top_k) },
    sync_conflicts: {
      count: (data.syncConflicts?.memories.length ?? 0) + (data.syncConflicts?.files.length ?? 0),
      rows: (data.syncConflicts?.memories ?? []).slice(0, top_k).map((r) => ({ ...r, summary: summarize(r.kept.body) })),
      files: [...data.syncConflicts?.files ?? []]
    },
    orphaned_origins: { applies: oc !== null, known_remotes: oc ? [...oc.known_remotes] : [], count: orphanRows.length, rows: orphanRows.slice(0, top_k) }
  };
}

// server/src/core/notes/commands.ts
import { promises as fsp10 } from "node:fs";

// server/src/core/trust/gates/dedup.ts
var DUPLICATE_THRESHOLD = 0.75;
var RELATED_THRESHOLD = 0.4;
var STOPWORDS2 = new Set(
  "a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing done down during each else etc even ever every few for from further get gets got had has have having he her here hers him his how however i if in into is it its itself just let lets like may me might more most much must my no nor not now of off on once one only or other our ours out over own per please same she should so some such than that the their theirs them then there these they this those through thus to too under until up upon us use used uses using very via was we were what when where whether which while who whom whose why will with within without would yet you your yours".split(" ")
);
var ASCII_ONLY = /^[\x00-\x7f]*$/;
function dedupTokenSet(text2) {
  if (!ASCII_ONLY.test(text2)) return unicodeTokens(text2);
  const out2 = /* @__PURE__ */ new Set();
  const n = text2.length;
  let i = 0;
  while (i < n) {
    let c = text2.charCodeAt(i);
    if (!isAsciiAlnum(c)) {
      i++;
      continue;
    }
    const start = i;
    let upper = false;
    for (; i < n; i++) {
      c = text2.charCodeAt(i);
      if (c >= 97 && c <= 122 || c >= 48 && c <= 57) continue;
      if (c >= 65 && c <= 90) {
        upper = true;
        continue;
      }
      break;
    }
    if (i - start < 2) {
      const d = text2.charCodeAt(start);
      if (!(d >= 48 && d <= 57)) continue;
    }
    const raw = upper ? text2.slice(start, i).toLowerCase() : text2.slice(start, i);
    if (!STOPWORDS2.has(raw)) out2.add(raw);
  }
  return out2;
}
function unicodeTokens(text2) {
  const out2 = /* @__PURE__ */ new Set();
  for (const raw of text2.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 && !new RegExp("\\p{N}", "u").test(raw) || STOPWORDS2.has(raw)) continue;
    out2.add(raw);
  }
  return out2;
}
function jaccard(a, b) {
  if (a.size === 0 && b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let inter = 0;
  for (const t of small) if (large.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}
function roundSimilarity(sim) {
  return Math.floor(sim * 1e3) / 1e3;
}

// server/src/core/trust/gates/durability.ts
var w = (src) => new RegExp(`\\b(?:${src})\\b`, "i");
var MARKER_RULES = [
  { label: "currently", re: w("currently") },
  { label: "right now", re: w("right now") },
  { label: "as of now", re: w("as of (?:now|today|yesterday|this (?:morning|afternoon|week|month|sprint))") },
  { label: "for now", re: w("for now") },
  { label: "at the moment", re: w("at the moment|at this moment|at present") },
  { label: "for the time being", re: w("for the time being|until further notice") },
  { label: "today I/we", re: w("today,? (?:i|we|i'm|we're|i've|we've)") },
  { label: "this morning", re: w("this (?:morning|afternoon|evening)|tonight|last night") },
  { label: "yesterday", re: w("yesterday") },
  { label: "tomorrow", re: w("tomorrow") },
  { label: "this week", re: w("this (?:week|sprint|month)") },
  { label: "last week", re: w("last (?:week|sprint|month)") },
  { label: "next week", re: w("next (?:week|sprint|month)") },
  { label: "I/we just", re: w("(?:i|we)(?:'ve| have)? just") },
  { label: "just shipped", re: w("just (?:shipped|landed|merged|released|deployed|pushed|added|switched|changed|moved|upgraded|migrated|rolled out)") },
  { label: "recently", re: w("recently|lately|nowadays|these days") },
  { label: "the latest", re: w("the latest") },
  { label: "the new", re: w("the new") },
  { label: "now uses", re: w("now (?:uses|use|points to|runs|lives|requires|defaults to|returns)") },
  { label: "is now", re: w("(?:is|are) now") },
  { label: "commits ahead/behind", re: w("\\d+ commits? (?:ahead|behind)|commits (?:ahead|behind)|(?:ahead of|behind) (?:origin|upstream|main|master)") },
  { label: "is unpushed", re: w("(?:is |are )?unpushed|not (?:yet )?pushed|uncommitted|not (?:yet )?merged|not merged yet") },
  { label: "still broken", re: w("still (?:broken|failing|flaky|open|pending|in progress|wip)") },
  // "wip" as a word, not a path or branch segment (wip/, feature/wip, wip-branch, .wip).
  { label: "in progress", re: /\b(?:work in progress|in progress)\b|(?<![\w/.-])wip(?![\w/-]|\.\w)/i }
];
var SHA_MARKER = "commit sha";
var UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
var SHA_RE = /(?<![0-9A-Za-z#_])[0-9a-f]{7,40}(?![0-9A-Za-z_])/g;
function findShaLike(text2) {
  const blanked = text2.replace(UUID_RE, (u2) => " ".repeat(u2.length));
  for (const m of blanked.matchAll(SHA_RE)) {
    if (/[0-9]/.test(m[0]) && /[a-f]/.test(m[0])) return { index: m.index, sha: m[0] };
  }
  return void 0;
}
var SNIPPET_RADIUS = 30;
function snippetAround(text2, start, end, radius = SNIPPET_RADIUS) {
  let from = Math.max(0, start - radius);
  let to = Math.min(text2.length, end + radius);
  if (from > 0) {
    const sp = text2.indexOf(" ", from);
    if (sp >= 0 && sp < start) from = sp + 1;
  }
  if (to < text2.length) {
    const sp = text2.lastIndexOf(" ", to);
    if (sp >= end) to = sp;
  }
  const body = text2.slice(from, to).replace(/\s+/g, " ").trim();
  return `${from > 0 ? "…" : ""}${body}${to < text2.length ? "…" : ""}`;
}
var GLOBAL_RULES = MARKER_RULES.map((r) => ({ label: r.label, re: new RegExp(r.re.source, "gi") }));
function markerSpans(text2) {
  const all = [];
  GLOBAL_RULES.forEach((rule, order) => {
    for (const m of text2.matchAll(rule.re)) all.push({ label: rule.label, start: m.index, end: m.index + m[0].length, order });
  });
  all.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
  const kept = [];
  let reach = -1;
  for (const c of all) {
    if (c.start < reach) continue;
    kept.push(c);
    reach = c.end;
  }
  return kept;
}
function detectTransient(text2) {
  const out2 = [];
  const spans = markerSpans(text2);
  for (const rule of MARKER_RULES) {
    const m = spans.find((x) => x.label === rule.label);
    if (m) out2.push({ marker: rule.label, snippet: snippetAround(text2, m.start, m.end) });
  }
  const sha = findShaLike(text2);
  if (sha) out2.push({ marker: SHA_MARKER, snippet: snippetAround(text2, sha.index, sha.index + sha.sha.length) });
  return out2;
}

// server/src/core/trust/gates/teamSecrets.ts
var PRIVATE_IP = /(?<![\d.])(?:10\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])|192\.168)\.\d{1,3}\.\d{1,3}(?![\d.])/g;
var INTERNAL_HOST = /\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:internal|local|lan|corp|intranet|home\.arpa)\b/gi;
var CREDENTIAL_WORD = /\b(?:pass(?:word|wd|phrase)?|pwd|secret|token|credentials?|api[_ -]?key|login)\b/i;
var EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g;
var STATED_PASSWORD = /\b(?:pass(?:word|wd|phrase)?|pwd)\b\s*(?:[:=]|is|was)\s*["'`]?([^\s"'`]{4,})/gi;
var TOKEN = /(?<![A-Za-z0-9_+=-])[A-Za-z0-9_+=-]{16,}(?![A-Za-z0-9_+=-])/g;
function valueLike(v) {
  if (isPlaceholder(v)) return false;
  return /[0-9]/.test(v) || /[^A-Za-z]/.test(v) || /[a-z][A-Z]/.test(v);
}
function tokenLike(t) {
  if (/^[0-9a-f-]+$/i.test(t)) return false;
  if (/^[0-9A-HJKMNP-TV-Z]{26}$/.test(t)) return false;
  if (/^p_[0-9A-HJKMNP-TV-Z]{26}$/.test(t)) return false;
  if ((t.match(/[0-9]/g) ?? []).length < 2 || !/[A-Za-z]/.test(t)) return false;
  if (/[a-z]{6,}|[A-Z]{6,}/.test(t)) return false;
  if (/^[a-z0-9]+(?:[-_][a-z0-9]+)+$/.test(t) && t.split(/[-_]/).every((p) => p.length <= 8)) return false;
  return shannonEntropy(t) >= 3.5;
}
function detectTeamSecrets(text2) {
  const out2 = [];
  if (CREDENTIAL_WORD.test(text2)) {
    const hosts = [...text2.matchAll(PRIVATE_IP), ...text2.matchAll(INTERNAL_HOST)].map((m) => m[0]);
    if (hosts.length > 0) out2.push({ kind: "private-host-credential", snippet: `${mask(hosts[0], 4)} with a credential word` });
  }
  const emails = [...text2.matchAll(EMAIL)].map((m) => m[0]);
  if (emails.length > 0) {
    for (const m of text2.matchAll(STATED_PASSWORD)) {
      if (!valueLike(m[1])) continue;
      out2.push({ kind: "email-password", snippet: `${mask(emails[0], 3)} ... ${m[0].slice(0, m[0].length - m[1].length)}${mask(m[1], 1)}` });
      break;
    }
  }
  for (const m of text2.matchAll(TOKEN)) {
    if (!tokenLike(m[0])) continue;
    out2.push({ kind: "high-entropy-token", snippet: mask(m[0], 3) });
    break;
  }
  return out2;
}

// server/src/core/trust/gates/tombstoneIndex.ts
var MAX_WALK = 5e4;
var TombstoneIndex = class {
  tokens = /* @__PURE__ */ new Map();
  postings = /* @__PURE__ */ new Map();
  get size() {
    return this.tokens.size;
  }
  add(m) {
    this.delete(m.id);
    const set2 = dedupTokenSet(m.body);
    this.tokens.set(m.id, set2);
    for (const t of set2) {
      let ids2 = this.postings.get(t);
      if (!ids2) this.postings.set(t, ids2 = /* @__PURE__ */ new Set());
      ids2.add(m.id);
    }
  }
  delete(id) {
    const set2 = this.tokens.get(id);
    if (!set2) return;
    this.tokens.delete(id);
    for (const t of set2) {
      const ids2 = this.postings.get(t);
      ids2?.delete(id);
      if (ids2 && ids2.size === 0) this.postings.delete(t);
    }
  }
  apply(change) {
    if (change.kind === "delete") {
      if (change.prev.tombstoned) this.delete(change.prev.id);
    } else if (change.mem.tombstoned) {
      this.add(change.mem);
    } else {
      this.delete(change.mem.id);
    }
  }
  /**
   * Tombstones with Jaccard >= minSimilarity to `tokens`, best first. Only the rarest terms are
   * walked: a set with Jaccard >= s to A shares at least s·|A| of A's terms, so it misses at
   * most (1 - s)·|A| of them and must appear in the lists of the floor((1 - s)·|A|) + 1 rarest.
   */
  similar(tokens, minSimilarity) {
    const query = new Set(tokens);
    if (query.size === 0 || this.tokens.size === 0) return [];
    const lists = [...query].map((t) => this.postings.get(t)).filter((l) => l !== void 0).sort((a, b) => a.size - b.size);
    const need = Math.floor((1 - minSimilarity) * query.size) + 1;
    const seen = /* @__PURE__ */ new Set();
    let walked = 0;
    for (const list2 of lists.slice(0, need)) {
      for (const id of list2) {
        if (walked++ >= MAX_WALK) break;
        seen.add(id);
      }
    }
    const out2 = [];
    for (const id of seen) {
      const sim = jaccard(query, this.tokens.get(id));
      if (sim >= minSimilarity) out2.push({ id, similarity: sim });
    }
    return out2.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));
  }
};
var built = /* @__PURE__ */ new WeakMap();
function tombstoneIndex(store) {
  let ix = built.get(store);
  if (!ix) {
    const fresh = new TombstoneIndex();
    for (const t of store.tombstones()) fresh.add(t);
    store.onChange((ch) => fresh.apply(ch));
    built.set(store, fresh);
    ix = fresh;
  }
  return ix;
}

// server/src/core/trust/gates/writeGates.ts
var DEDUP_CANDIDATES = 50;
var MAX_MATCHES = 5;
function paraphrase(rule, cosine, jac, a, b, removed) {
  return rule !== void 0 && cosine >= rule.cos && jac >= rule.jaccard && (removed || jac < RELATED_THRESHOLD) && sameNumbers(a, b) && wordy(a) && wordy(b);
}
var wordy = (t) => dedupTokenSet(t).size >= 6;
var numbersOf = (t) => new Set(t.match(/\d+(?:[.,:]\d+)*/g) ?? []);
function sameNumbers(a, b) {
  const x = numbersOf(a);
  const y = numbersOf(b);
  return x.size === y.size && [...x].every((n) => y.has(n));
}
function snippetOf(body, max = 160) {
  const flat = body.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;
}
function sourcesOf(c, opts) {
  const own2 = { label: opts.label ?? "personal", store: c.store, candidates: opts.candidates, ...opts.neighbours ? { neighbours: opts.neighbours } : {}, ...opts.removedNeighbours ? { removedNeighbours: opts.removedNeighbours } : {} };
  return [own2, ...opts.also ?? []];
}
async function activeMatches(c, tokens, content, opts) {
  const all = [];
  const labelled = (opts.also?.length ?? 0) > 0;
  for (const src of sourcesOf(c, opts)) all.push(...await activeMatchesIn(c, src, labelled, tokens, content, opts));
  return all.sort((a, b) => Number(b.dup) - Number(a.dup) || b.raw - a.raw || (a.id < b.id ? -1 : 1));
}
async function activeMatchesIn(c, src, labelled, tokens, content, opts) {
  const now = c.now();
  const out2 = /* @__PURE__ */ new Map();
  const sem = /* @__PURE__ */ new Map();
  const held = /* @__PURE__ */ new Map();
  if (src.neighbours && opts.semanticRule) {
    for (const n of await src.neighbours(content, MAX_MATCHES * 2)) {
      if (n.cosine < opts.semanticRule.related) continue;
      sem.set(n.id, n.cosine);
      if (n.mem) held.set(n.id, n.mem);
    }
  }
  const lexical = src.candidates(content, DEDUP_CANDIDATES + (opts.exclude?.size ?? 0));
  for (const m of lexical) held.set(m.id, m);
  for (const id of [...lexical.map((m) => m.id), ...sem.keys()]) {
    if (out2.has(id) || opts.exclude?.has(id)) continue;
    const m = held.get(id) ?? src.store.get(id);
    if (!m || isExpired(m, now)) continue;
    const sim = jaccard(tokens, dedupTokenSet(m.body));
    const cos = sem.get(id);
    if (sim < RELATED_THRESHOLD && cos === void 0) continue;
    const dup = sim >= DUPLICATE_THRESHOLD || cos !== void 0 && paraphrase(opts.semanticRule, cos, sim, content, m.body, false);
    const rel = { id: m.id, similarity: roundSimilarity(sim), snippet: snippetOf(m.body), scopes: m.scopes, updated: m.updated };
    if (cos !== void 0) rel.semantic = roundSimilarity(cos);
    if (labelled) rel.store = src.label;
    out2.set(id, { ...rel, raw: Math.max(sim, dup ? DUPLICATE_THRESHOLD : 0, cos ?? 0), dup });
  }
  return [...out2.values()];
}
function strip(m) {
  const { raw, dup, ...rest } = m;
  void raw;
  void dup;
  return rest;
}
var SECRET_HINT = 'Nothing was stored: memories are plaintext files. Remove the secret and say where it lives instead (e.g. "the deploy key is in 1Password under Infra"). There is no override.';
var TEAM_SECRET_HINT = 'Nothing was stored: the team store is committed and shared with everyone who has the repository, so it refuses anything that may be a credential, including private hosts with credential words, an email with a password, and bare random-looking tokens. Say where the secret lives instead (e.g. "the staging DB password is in the team vault under staging/db"). There is no override.';
async function runWriteGates(c, w2, opts) {
  const text2 = w2.aliases && w2.aliases.length > 0 ? `${w2.content}
${w2.aliases.join("\n")}` : w2.content;
  const findings = secretFindings(text2, opts.strict === true);
  if (findings.length > 0) {
    return {
      outcome: {
        status: "secret_detected",
        findings,
        hint: opts.strict ? TEAM_SECRET_HINT : SECRET_HINT,
        ...opts.strict ? { store: "team" } : {}
      },
      logFields: { secret_kinds: [...new Set(findings.map((f) => f.kind))] }
    };
  }
  const markers = detectTransient(w2.content);
  const logFields = {};
  if (markers.length > 0) {
    logFields.markers = markers.map((m) => m.marker);
    logFields.acknowledge_transient = opts.acknowledge_transient;
    if (!opts.acknowledge_transient) {
      return {
        outcome: {
          status: "transient_warning",
          markers,
          hint: 'Nothing was stored: this reads as the state of the moment and will mislead once it changes. Reword it as a durable fact (name the version, date or condition instead of "currently", "just", a commit SHA), or pass acknowledge_transient=true to store it as written.'
        },
        logFields
      };
    }
  }
  const tokens = dedupTokenSet(w2.content);
  const active = await activeMatches(c, tokens, w2.content, opts);
  const high = active.filter((m) => m.dup);
  if (!opts.force && high.length > 0) {
    return {
      outcome: {
        status: "duplicate",
        matches: high.slice(0, MAX_MATCHES).map(strip),
        hint: `Nothing was stored: memory ${high[0].id}${high[0].store ? ` (${high[0].store} store)` : ""} already says this. Change it with memory_update (or memory_verify it if it still holds); pass force=true only if this is a different fact.`
      },
      logFields: { ...logFields, duplicate_of: high.map((m) => m.id).slice(0, MAX_MATCHES) }
    };
  }
  if (!opts.force) {
    const labelled = (opts.also?.length ?? 0) > 0;
    const removed = [];
    for (const src of sourcesOf(c, opts)) {
      const own2 = tombstoneIndex(src.store).similar([...tokens], DUPLICATE_THRESHOLD).map((r) => ({ ...r, src }));
      if (src.removedNeighbours && opts.semanticRule) {
        const seen = new Set(own2.map((r) => r.id));
        for (const n of await src.removedNeighbours(w2.content, MAX_MATCHES * 2)) {
          const t = src.store.getTombstone(n.id);
          if (!t || seen.has(n.id)) continue;
          const sim = jaccard(tokens, dedupTokenSet(t.body));
          if (paraphrase(opts.semanticRule, n.cosine, sim, w2.content, t.body, true)) own2.push({ id: n.id, similarity: sim, semantic: n.cosine, src });
        }
      }
      removed.push(...own2);
    }
    if (labelled) removed.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));
    const matches = removed.filter((r) => !opts.exclude?.has(r.id)).map((r) => ({ r, t: r.src.store.getTombstone(r.id) })).filter((x) => x.t !== void 0).slice(0, MAX_MATCHES).map(({ r, t }) => ({
      id: t.id,
      ...labelled ? { store: r.src.label } : {},
      similarity: roundSimilarity(r.similarity),
      ...r.semantic !== void 0 ? { semantic: roundSimilarity(r.semantic) } : {},
      snippet: snippetOf(t.body),
      scopes: t.scopes,
      removed_at: t.removed ?? null,
      removed_reason: t.removed_reason ?? null
    }));
    if (matches.length > 0) {
      return {
        outcome: {
          status: "previously_removed",
          matches,
          hint: `Nothing was stored: a near-identical memory${matches[0].store ? ` in the ${matches[0].store} store` : ""} was removed on ${matches[0].removed_at?.slice(0, 10) ?? "an earlier date"} (reason: ${JSON.stringify(matches[0].removed_reason ?? "")}). Ask the user before storing it again; memory_restore brings the old one back, force=true writes it anew.`
        },
        logFields: { ...logFields, previously_removed: matches.map((m) => m.id) }
      };
    }
  }
  const related2 = active.slice(0, MAX_MATCHES).map(strip);
  if (related2.length > 0) logFields.related = related2.map((r) => r.id);
  const reason = opts.confirmed ? null : w2.category === "user-inference" ? "user-inference" : c.config.behavior.require_write_confirmation ? "require_write_confirmation" : null;
  if (reason) {
    const now = c.now();
    const expires = new Date(now.getTime() + c.config.behavior.pending_ttl_minutes * 6e4);
    const pending_id = newPendingId(now);
    await sweepPending(c.dir, now);
    await savePending(c.dir, {
      pending_id,
      created_at: now.toISOString(),
      expires_at: expires.toISOString(),
      session: c.session,
      reason,
      write: w2,
      markers: logFields.markers ?? []
    });
    return {
      outcome: {
        status: "pending",
        pending_id,
        pending_reason: reason,
        expires_at: expires.toISOString(),
        preview: { ...w2 },
        ...related2.length > 0 ? { related: related2 } : {},
        hint: reason === "user-inference" ? "Not stored yet: this is a claim about the user. Show it to the user; if they agree call memory_write_confirm with pending_id, otherwise memory_write_cancel." : "Not stored yet: this store asks for confirmation of every write (behavior.require_write_confirmation). Call memory_write_confirm with pending_id once the user agrees, or memory_write_cancel."
      },
      logFields: { ...logFields, pending_id, pending_reason: reason }
    };
  }
  return { ...related2.length > 0 ? { related: related2 } : {}, logFields };
}
function secretFindings(text2, strict) {
  const findings = detectSecrets(text2);
  if (strict) findings.push(...detectTeamSecrets(text2));
  return findings;
}
async function checkUpdateContent(c, content, strict = false) {
  void c;
  const findings = secretFindings(content, strict);
  if (findings.length === 0) return;
  const list2 = findings.map((f) => `${f.kind} (${f.snippet})`).join(", ");
  throw new ValidationError(
    `content contains ${findings.length === 1 ? "a secret" : `${findings.length} secrets`}: ${list2}; nothing was changed. ${strict ? "This is a team memory, shared through git with everyone who has the repository" : "Memories are plaintext"}: say where the secret lives instead of its value`
  );
}
function updateMarkers(old, next2) {
  const oldAliases = old.aliases ?? [];
  const before = new Set([old.body, ...oldAliases].flatMap((t) => detectTransient(t).map((m) => m.marker)));
  const fired = /* @__PURE__ */ new Map();
  const where = /* @__PURE__ */ new Set();
  const judge = (text2, from) => {
    for (const m of detectTransient(text2)) {
      if (before.has(m.marker) || fired.has(m.marker)) continue;
      fired.set(m.marker, m);
      where.add(from);
    }
  };
  if (next2.body !== old.body) judge(next2.body, "content");
  for (const a of next2.aliases ?? []) if (!oldAliases.includes(a)) judge(a, "aliases");
  return { markers: [...fired.values()], where: [...where] };
}
function transientUpdateError(fired, where = ["content"]) {
  const list2 = fired.map((m) => `"${m.marker}" (${m.snippet})`).join(", ");
  return new ValidationError(
    `${where.join(" and ")} ${where.length > 1 || where[0] === "aliases" ? "read" : "reads"} as the state of the moment: ${list2}; nothing was changed. Reword it as a durable fact (name the version, date or condition instead), or pass acknowledge_transient=true to store it as written`
  );
}

// server/src/core/notes/errors.ts
var MemoryToolError = class extends CairnError {
  name = "MemoryToolError";
};

// server/src/core/notes/paths.ts
import { lstatSync as lstatSync8 } from "node:fs";
import { join as join23, resolve as resolve5, sep as sep2 } from "node:path";
var escapes = (p) => new MemoryToolError(`Path ${p} would escape /memories directory`);
function decoded(p) {
  let cur = p;
  for (let i = 0; i < 3 && cur.includes("%"); i++) {
    let next2;
    try {
      next2 = decodeURIComponent(cur);
    } catch {
      next2 = cur.replace(/%([0-9a-fA-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16)));
    }
    if (next2 === cur) break;
    cur = next2;
  }
  return cur;
}
function resolveMemoryPath(notesDir, path, arg = "path") {
  if (typeof path !== "string" || path === "") throw new MemoryToolError(`${arg} is required: a path under /memories, like /memories/notes.md`);
  if (path !== MEMORIES_ROOT && !path.startsWith(`${MEMORIES_ROOT}/`)) throw new MemoryToolError(`Path must start with /memories, got: ${path}`);
  for (const form of [path, decoded(path)]) {
    if (form.includes("\0")) throw escapes(path);
    if (form.split(/[\\/]/).some((s2) => s2 === "..")) throw escapes(path);
  }
  const segs = path.slice(MEMORIES_ROOT.length).split("/").filter((s2) => s2 !== "" && s2 !== ".");
  const hidden = segs.find((s2) => s2.startsWith("."));
  if (hidden !== void 0) throw new MemoryToolError(`Path ${path} names a hidden item (${hidden}): names starting with "." are not notes`);
  if (segs.some((s2) => s2.includes("\\"))) throw new MemoryToolError(`Path ${path} contains a backslash: separate folders with "/"`);
  const rel = segs.join("/");
  const abs = rel === "" ? notesDir : join23(notesDir, ...segs);
  const root = resolve5(notesDir);
  if (resolve5(abs) !== root && !resolve5(abs).startsWith(root + sep2)) throw escapes(path);
  let cur = notesDir;
  for (const s2 of ["", ...segs]) {
    cur = s2 === "" ? cur : join23(cur, s2);
    let st;
    try {
      st = lstatSync8(cur);
    } catch {
      break;
    }
    if (st.isSymbolicLink()) throw new MemoryToolError("Path would escape /memories directory via symlink");
    if (!st.isDirectory()) break;
  }
  const shown2 = path.length > MEMORIES_ROOT.length ? path.replace(/\/+$/, "") : path;
  return { shown: shown2, rel, abs };
}

// server/src/core/notes/commands.ts
var MEMORY_COMMANDS = ["view", "create", "str_replace", "insert", "delete", "rename"];
var LINE_NUMBER_WIDTH = 6;
var MAX_LINES = 999999;
var LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
var numbered = (lines, first) => lines.map((l, i) => `${String(first + i).padStart(LINE_NUMBER_WIDTH, " ")}	${l}`).join("\n");
function formatSize(bytes) {
  if (bytes === 0) return "0B";
  const units = ["B", "K", "M", "G"];
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const n = bytes / 1024 ** i;
  return `${n % 1 === 0 ? String(n) : n.toFixed(1)}${units[i]}`;
}
function asLines(text2) {
  const crlf = text2.includes("\r\n") && !/(?<!\r)\n/.test(text2);
  return { lines: (crlf ? text2.replace(/\r\n/g, "\n") : text2).split("\n"), crlf };
}
var joinLines = (lines, crlf) => lines.join(crlf ? "\r\n" : "\n");
function checkText(env, text2, arg, whole) {
  if (typeof text2 !== "string") throw new MemoryToolError(`${arg} is required for this command: the text to write`);
  const nul = text2.indexOf("\0");
  if (nul !== -1) throw new MemoryToolError(`${arg} contains a NUL character at position ${nul}: a note is plain text`);
  const lone = LONE_SURROGATE.exec(text2);
  if (lone) throw new MemoryToolError(`${arg} contains an unpaired UTF-16 surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}) at position ${lone.index}: send valid Unicode text`);
  const findings = detectSecrets(text2);
  if (findings.length > 0) {
    const list2 = findings.map((f) => `${f.kind} (${f.snippet})`).join(", ");
    throw new MemoryToolError(`${arg} contains ${findings.length === 1 ? "a secret" : `${findings.length} secrets`}: ${list2}. ${SECRET_HINT}`);
  }
  const size2 = (whole ?? text2).length;
  if (size2 > env.maxChars) throw new MemoryToolError(`${whole === void 0 ? arg : "the edited note"} is ${size2} characters, over the limit of ${env.maxChars} (behavior.max_body_chars): keep notes shorter, split them by topic`);
  return text2;
}
async function statOf(p) {
  return fsp10.lstat(p.abs).catch(() => null);
}
async function runMemoryCommand(env, cmd) {
  switch (cmd.command) {
    case "view":
      return view(env, cmd.path, cmd.view_range);
    case "create":
      return create(env, cmd.path, cmd.file_text);
    case "str_replace":
      return strReplace(env, cmd.path, cmd.old_str, cmd.new_str ?? "");
    case "insert":
      return insert(env, cmd.path, cmd.insert_line, cmd.insert_text);
    case "delete":
      return remove(env, cmd.path);
    case "rename":
      return rename(env, cmd.old_path, cmd.new_path);
    default:
      cmd;
      throw new MemoryToolError(`unknown command ${JSON.stringify(cmd.command)}: use one of ${MEMORY_COMMANDS.join(", ")}`);
  }
}
async function view(env, path, range) {
  const p = resolveMemoryPath(env.store.notesDir, path);
  const st = p.rel === "" ? await fsp10.stat(p.abs).catch(() => null) : await statOf(p);
  if (p.rel === "" && !st) {
    return `Here're the files and directories up to 2 levels deep in ${p.shown}, excluding hidden items and node_modules:
${formatSize(0)}	${p.shown}`;
  }
  if (!st) throw new MemoryToolError(`The path ${p.shown} does not exist. Please provide a valid path.`);
  if (st.isDirectory()) {
    const rows = [`${formatSize(st.size)}	${p.shown}`];
    const walk = async (dir, prefix, depth) => {
      const names = (await fsp10.readdir(dir).catch(() => [])).sort();
      for (const name of names) {
        if (name.startsWith(".") || name === "node_modules") continue;
        const s2 = await fsp10.lstat(`${dir}/${name}`).catch(() => null);
        if (!s2) continue;
        const rel = prefix === "" ? name : `${prefix}/${name}`;
        if (s2.isDirectory()) {
          rows.push(`${formatSize(s2.size)}	${p.shown}/${rel}/`);
          if (depth < 2) await walk(`${dir}/${name}`, rel, depth + 1);
        } else if (s2.isFile()) rows.push(`${formatSize(s2.size)}	${p.shown}/${rel}`);
      }
    };
    await walk(p.abs, "", 1);
    return `Here're the files and directories up to 2 levels deep in ${p.shown}, excluding hidden items and node_modules:
${rows.join("\n")}`;
  }
  if (!st.isFile()) throw new MemoryToolError(`The path ${p.shown} does not exist. Please provide a valid path.`);
  const { lines } = asLines(await fsp10.readFile(p.abs, "utf8"));
  if (lines.length > MAX_LINES) throw new MemoryToolError(`File ${p.shown} exceeds maximum line limit of 999,999 lines.`);
  let first = 1;
  let shown2 = lines;
  if (range !== void 0) {
    const [a, b] = range;
    const ok = range.length === 2 && Number.isInteger(a) && Number.isInteger(b) && a >= 1 && a <= lines.length && (b === -1 || b >= a);
    if (!ok) throw new MemoryToolError(`Invalid \`view_range\` parameter: ${JSON.stringify(range)}. It should be [start, end] with 1 <= start <= ${lines.length} and end >= start, or end = -1 for the rest of the file`);
    first = a;
    shown2 = lines.slice(a - 1, b === -1 ? lines.length : b);
  }
  return `Here's the content of ${p.shown} with line numbers:
${numbered(shown2, first)}`;
}
async function create(env, path, fileText) {
  const p = resolveMemoryPath(env.store.notesDir, path);
  const text2 = checkText(env, fileText, "file_text");
  if (p.rel === "" || await statOf(p)) throw new MemoryToolError(`File ${p.shown} already exists`);
  await parentsAreFolders(env, p);
  await env.store.editNote(p.abs, (cur) => {
    if (cur !== null) throw new MemoryToolError(`File ${p.shown} already exists`);
    return text2;
  });
  return `File created successfully at: ${p.shown}`;
}
async function parentsAreFolders(env, p) {
  const segs = p.rel.split("/");
  for (let i = 1; i < segs.length; i++) {
    const q = resolveMemoryPath(env.store.notesDir, `${MEMORIES_ROOT}/${segs.slice(0, i).join("/")}`);
    const st = await statOf(q);
    if (st && !st.isDirectory()) throw new MemoryToolError(`Cannot create ${p.shown}: ${q.shown} is a file, not a directory`);
  }
}
async function existingFile(p, notFound) {
  const st = await statOf(p);
  if (!st || !st.isFile()) throw new MemoryToolError(notFound);
}
async function strReplace(env, path, oldStr, newStr) {
  const p = resolveMemoryPath(env.store.notesDir, path);
  if (typeof oldStr !== "string" || oldStr === "") throw new MemoryToolError("old_str is required and must not be empty: the exact text to replace");
  checkText(env, newStr, "new_str");
  const notFound = `The path ${p.shown} does not exist. Please provide a valid path.`;
  await existingFile(p, notFound);
  let snippet = "";
  await env.store.editNote(p.abs, (cur) => {
    if (cur === null) throw new MemoryToolError(notFound);
    const { lines, crlf } = asLines(cur);
    const text2 = lines.join("\n");
    const needle = oldStr.replace(/\r\n/g, "\n");
    const replacement = newStr.replace(/\r\n/g, "\n");
    const at2 = [];
    for (let i = text2.indexOf(needle); i !== -1; i = text2.indexOf(needle, i + 1)) at2.push(i);
    if (at2.length === 0) throw new MemoryToolError(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${p.shown}.`);
    const lineOf2 = (i) => text2.slice(0, i).split("\n").length;
    if (at2.length > 1) {
      const nums = [...new Set(at2.map(lineOf2))];
      throw new MemoryToolError(`No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines: ${nums.join(", ")}. Please ensure it is unique`);
    }
    const next2 = text2.slice(0, at2[0]) + replacement + text2.slice(at2[0] + needle.length);
    const whole = joinLines(next2.split("\n"), crlf);
    checkText(env, newStr, "new_str", whole);
    const start = lineOf2(at2[0]) - 1;
    const newLines = next2.split("\n");
    const from = Math.max(0, start - 2);
    const to = Math.min(newLines.length, start + replacement.split("\n").length + 2);
    snippet = numbered(newLines.slice(from, to), from + 1);
    return whole;
  });
  return `The memory file has been edited. Here is the snippet showing the change (with line numbers):
${snippet}`;
}
async function insert(env, path, insertLine, insertText) {
  const p = resolveMemoryPath(env.store.notesDir, path);
  checkText(env, insertText, "insert_text");
  if (typeof insertLine !== "number" || !Number.isInteger(insertLine)) throw new MemoryToolError("insert_line is required: the line number after which to insert (0 = before the first line)");
  const notFound = `The path ${p.shown} does not exist`;
  await existingFile(p, notFound);
  await env.store.editNote(p.abs, (cur) => {
    if (cur === null) throw new MemoryToolError(notFound);
    const { lines, crlf } = asLines(cur);
    if (insertLine < 0 || insertLine > lines.length) {
      throw new MemoryToolError(`Invalid \`insert_line\` parameter: ${insertLine}. It should be within the range of lines of the file: [0, ${lines.length}]`);
    }
    lines.splice(insertLine, 0, insertText.replace(/\r\n/g, "\n").replace(/\n$/, ""));
    const whole = joinLines(lines, crlf);
    checkText(env, insertText, "insert_text", whole);
    return whole;
  });
  return `The file ${p.shown} has been edited.`;
}
async function notesUnder(env, p) {
  const files = [];
  const dirs = [];
  const walk = async (abs) => {
    const st = await fsp10.lstat(abs).catch(() => null);
    if (!st) return;
    if (st.isFile()) files.push(abs);
    else if (st.isDirectory()) {
      for (const n of await fsp10.readdir(abs)) if (!n.startsWith(".")) await walk(`${abs}/${n}`);
      dirs.push(abs);
    }
  };
  await walk(p.abs);
  return { files: files.filter((f) => env.store.noteRel(f) !== null), dirs };
}
async function remove(env, path) {
  const p = resolveMemoryPath(env.store.notesDir, path);
  if (p.rel === "") throw new MemoryToolError("Cannot delete the /memories directory itself");
  if (!await statOf(p)) throw new MemoryToolError(`The path ${p.shown} does not exist`);
  const { files, dirs } = await notesUnder(env, p);
  await env.store.removeNotes(files, env.tombstone);
  for (const d of dirs) await fsp10.rmdir(d).catch(() => {
  });
  return `Successfully deleted ${p.shown}`;
}
async function rename(env, oldPath, newPath) {
  const from = resolveMemoryPath(env.store.notesDir, oldPath, "old_path");
  const to = resolveMemoryPath(env.store.notesDir, newPath, "new_path");
  if (from.rel === "" || to.rel === "") throw new MemoryToolError("Cannot rename the /memories directory itself");
  if (!await statOf(from)) throw new MemoryToolError(`The path ${from.shown} does not exist`);
  if (await statOf(to)) throw new MemoryToolError(`The destination ${to.shown} already exists`);
  if (`${to.rel}/`.startsWith(`${from.rel}/`)) throw new MemoryToolError(`Cannot move ${from.shown} into itself (${to.shown})`);
  await parentsAreFolders(env, to);
  try {
    await env.store.renameNote(from.abs, to.abs);
  } catch (err) {
    const code = err.code;
    if (code === "EEXIST") throw new MemoryToolError(`The destination ${to.shown} already exists`);
    if (code === "ENOENT") throw new MemoryToolError(`The path ${from.shown} does not exist`);
    throw err;
  }
  return `Successfully renamed ${from.shown} to ${to.shown}`;
}

// server/src/core/notes/structure.ts
var OBSERVATION = /^\s*[-*+]\s+\[([^\]\n]+)\]\s+(.+)$/;
var RELATION = /^\s*[-*+]\s+([\p{L}_][\p{L}\p{N}_ -]*?)\s+\[\[([^\]\n]+)\]\]/u;
var WIKILINK = /\[\[([^\]\n]+)\]\]/g;
var TAG = /(?:^|[\s(])#([\p{L}][\p{L}\p{N}_/-]*)/gu;
var LINKS_TO = "links_to";
function relationName(s2) {
  return s2.trim().toLowerCase().replace(/[\s-]+/g, "_");
}
function targetOf(inner) {
  return inner.split("|")[0].split("#")[0].trim();
}
function tagsIn(text2) {
  const out2 = [];
  for (const m of text2.matchAll(TAG)) out2.push(m[1].toLowerCase().replace(/[/-]+$/, ""));
  return out2;
}
function frontmatter(body) {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(body);
  if (!m) return { title: null, tags: [], rest: body };
  const fm = m[1];
  const title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(fm)?.[1] ?? null;
  const tags = [];
  const flow = /^tags:\s*\[(.*)\]\s*$/m.exec(fm);
  if (flow) tags.push(...flow[1].split(",").map((t) => t.trim().replace(/^["'#]+|["']+$/g, "")));
  const block2 = /^tags:\s*\n((?:\s+-\s*.+\n?)+)/m.exec(fm);
  if (block2) tags.push(...block2[1].split("\n").map((l) => l.replace(/^\s*-\s*/, "").trim().replace(/^["'#]+|["']+$/g, "")));
  return { title, tags: tags.filter((t) => t !== "").map((t) => t.toLowerCase()), rest: body.slice(m[0].length) };
}
function parseStructure(body) {
  const fm = frontmatter(body);
  const observations = [];
  const links = [];
  const tags = new Set(fm.tags);
  let title = fm.title;
  let inFence = false;
  for (const line of fm.rest.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (title === null) {
      const h = /^#\s+(.+?)\s*#*\s*$/.exec(line);
      if (h) title = h[1];
    }
    for (const t of tagsIn(line)) tags.add(t);
    const rel = RELATION.exec(line);
    let relSpan = "";
    if (rel && !/^\[/.test(rel[1])) {
      links.push({ relation: relationName(rel[1]), target: targetOf(rel[2]) });
      relSpan = `[[${rel[2]}]]`;
    }
    const obs = OBSERVATION.exec(line);
    if (obs && !/^\s*[xX ]?\s*$/.test(obs[1]) && !obs[2].startsWith("(")) {
      const text2 = obs[2].trim();
      observations.push({ category: obs[1].trim().toLowerCase(), text: text2, tags: tagsIn(text2) });
    }
    let usedRel = false;
    for (const w2 of line.matchAll(WIKILINK)) {
      if (!usedRel && w2[0] === relSpan) {
        usedRel = true;
        continue;
      }
      const target = targetOf(w2[1]);
      if (target !== "") links.push({ relation: LINKS_TO, target });
    }
  }
  return { title, observations, links, tags: [...tags], categories: [...new Set(observations.map((o) => o.category))] };
}
var cache = /* @__PURE__ */ new WeakMap();
function structureOf(m) {
  let s2 = cache.get(m);
  if (s2 === void 0) cache.set(m, s2 = parseStructure(m.body));
  return s2;
}

// server/src/core/notes/graph.ts
var norm = (s2) => s2.trim().toLowerCase().replace(/\s+/g, " ");
var noExt = (s2) => s2.replace(/\.[A-Za-z0-9]{1,8}$/, "");
function titleOf(m) {
  const t = structureOf(m).title;
  if (t !== null) return t;
  if (m.note !== void 0) return noExt(m.note.slice(m.note.lastIndexOf("/") + 1));
  const first = m.body.split("\n").find((l) => l.trim() !== "") ?? m.id;
  return first.length > 80 ? `${first.slice(0, 79)}…` : first.trim();
}
var sortKey = (m) => m.note ?? `~${m.id}`;
function targetKeys(target) {
  const t = norm(target);
  const bare = t.startsWith(`${MEMORIES_ROOT}/`) ? t.slice(MEMORIES_ROOT.length + 1) : t;
  return [.../* @__PURE__ */ new Set([t, bare, noExt(bare)])];
}
var LinkGraph = class {
  constructor(store) {
    this.store = store;
    this.off = store.onChange((c) => {
      if (!this.built) return;
      try {
        this.apply(c);
      } catch {
        this.built = false;
      }
    });
  }
  store;
  built = false;
  /** The active records the graph holds, by id. */
  recs = /* @__PURE__ */ new Map();
  /** key -> (id -> rank of the key among that record's keys: lower is stronger). */
  claims = /* @__PURE__ */ new Map();
  /** key -> the id that holds it. */
  owner = /* @__PURE__ */ new Map();
  /** The keys each record claims (as claimed, so a removal gives back exactly these). */
  claimed = /* @__PURE__ */ new Map();
  out = /* @__PURE__ */ new Map();
  inc = /* @__PURE__ */ new Map();
  unresolved = /* @__PURE__ */ new Set();
  /** key -> the links whose target is looked up by it. */
  watch = /* @__PURE__ */ new Map();
  off;
  close() {
    this.off();
  }
  keysOf(m) {
    const keys = [];
    if (m.note !== void 0) {
      const rel = m.note.slice(MEMORIES_ROOT.length + 1);
      keys.push(m.note, rel, noExt(rel));
    }
    const t = structureOf(m).title;
    if (t !== null) keys.push(t);
    if (m.note !== void 0) keys.push(noExt(m.note.slice(m.note.lastIndexOf("/") + 1)));
    for (const a of m.aliases ?? []) keys.push(a);
    keys.push(m.id);
    const ranked = /* @__PURE__ */ new Map();
    keys.forEach((k, i) => {
      const n = norm(k);
      if (!ranked.has(n)) ranked.set(n, i);
    });
    return ranked;
  }
  /** Whether claim (id, rank) beats the key's current holder. */
  beats(key, id, rank, holder) {
    if (holder === void 0) return true;
    const hr = this.claims.get(key).get(holder);
    if (rank !== hr) return rank < hr;
    return sortKey(this.recs.get(id)).localeCompare(sortKey(this.recs.get(holder))) < 0;
  }
  claim(m, changed) {
    const keys = this.keysOf(m);
    this.claimed.set(m.id, keys);
    for (const [k, rank] of keys) {
      let c = this.claims.get(k);
      if (!c) this.claims.set(k, c = /* @__PURE__ */ new Map());
      c.set(m.id, rank);
      if (this.beats(k, m.id, rank, this.owner.get(k))) {
        this.owner.set(k, m.id);
        changed.add(k);
      }
    }
  }
  unclaim(id, changed) {
    for (const k of this.claimed.get(id)?.keys() ?? []) {
      const c = this.claims.get(k);
      c.delete(id);
      if (this.owner.get(k) !== id) continue;
      changed.add(k);
      this.owner.delete(k);
      if (c.size === 0) {
        this.claims.delete(k);
        continue;
      }
      let best;
      for (const [other, rank] of c) if (this.beats(k, other, rank, best)) best = other;
      this.owner.set(k, best);
    }
    this.claimed.delete(id);
  }
  resolveKeys(keys) {
    for (const k of keys) {
      const o = this.owner.get(k);
      if (o !== void 0) return o;
    }
    return null;
  }
  attach(e) {
    if (e.to === null) this.unresolved.add(e);
    else {
      let s2 = this.inc.get(e.to);
      if (!s2) this.inc.set(e.to, s2 = /* @__PURE__ */ new Set());
      s2.add(e);
    }
  }
  detach(e) {
    if (e.to === null) this.unresolved.delete(e);
    else {
      const s2 = this.inc.get(e.to);
      s2?.delete(e);
      if (s2?.size === 0) this.inc.delete(e.to);
    }
  }
  link(m) {
    const edges = structureOf(m).links.map((l, pos) => {
      const keys = targetKeys(l.target);
      return { from: m.id, pos, relation: l.relation, target: l.target, keys, to: this.resolveKeys(keys) };
    });
    if (edges.length === 0) return;
    this.out.set(m.id, edges);
    for (const e of edges) {
      this.attach(e);
      for (const k of e.keys) {
        let w2 = this.watch.get(k);
        if (!w2) this.watch.set(k, w2 = /* @__PURE__ */ new Set());
        w2.add(e);
      }
    }
  }
  unlink(id) {
    for (const e of this.out.get(id) ?? []) {
      this.detach(e);
      for (const k of e.keys) {
        const w2 = this.watch.get(k);
        w2?.delete(e);
        if (w2?.size === 0) this.watch.delete(k);
      }
    }
    this.out.delete(id);
  }
  /** Links whose lookup keys changed hands: resolved again. */
  reresolve(changed) {
    for (const k of changed) {
      for (const e of this.watch.get(k) ?? []) {
        const to = this.resolveKeys(e.keys);
        if (to === e.to) continue;
        this.detach(e);
        e.to = to;
        this.attach(e);
      }
    }
  }
  apply(c) {
    const id = c.kind === "upsert" ? c.mem.id : c.prev.id;
    const changed = /* @__PURE__ */ new Set();
    if (this.recs.has(id)) {
      this.unlink(id);
      this.unclaim(id, changed);
      this.recs.delete(id);
    }
    const m = c.kind === "upsert" && !c.mem.tombstoned ? c.mem : null;
    if (m) {
      this.recs.set(id, m);
      this.claim(m, changed);
    }
    this.reresolve(changed);
    if (m) this.link(m);
  }
  build() {
    if (this.built) return;
    this.built = true;
    this.recs = /* @__PURE__ */ new Map();
    this.claims = /* @__PURE__ */ new Map();
    this.owner = /* @__PURE__ */ new Map();
    this.claimed = /* @__PURE__ */ new Map();
    this.out = /* @__PURE__ */ new Map();
    this.inc = /* @__PURE__ */ new Map();
    this.unresolved = /* @__PURE__ */ new Set();
    this.watch = /* @__PURE__ */ new Map();
    const all = [...this.store.active()];
    for (const m of all) this.recs.set(m.id, m);
    const ignored = /* @__PURE__ */ new Set();
    for (const m of all) this.claim(m, ignored);
    for (const m of all) this.link(m);
  }
  edge(e) {
    return { from: this.recs.get(e.from), relation: e.relation, target: e.target, to: e.to === null ? null : this.recs.get(e.to) };
  }
  /** Links in a stable order: by source (notes by path, then memories by id), then body order. */
  ordered(edges) {
    return [...edges].map((e) => ({ e, k: sortKey(this.recs.get(e.from)) })).sort((a, b) => a.k === b.k ? a.e.pos - b.e.pos : a.k.localeCompare(b.k)).map((x) => this.edge(x.e));
  }
  /** The record a link target names, if any. */
  resolve(target) {
    this.build();
    const id = this.resolveKeys(targetKeys(target));
    return id === null ? void 0 : this.recs.get(id);
  }
  outgoing(id) {
    this.build();
    return (this.out.get(id) ?? []).map((e) => this.edge(e));
  }
  backlinks(id) {
    this.build();
    return this.ordered(this.inc.get(id) ?? []);
  }
  /** Every link whose target resolves to nothing. */
  dangling() {
    this.build();
    return this.ordered(this.unresolved);
  }
};

// server/src/core/ops/notes.ts
var NOTE_DELETE_REASON = "deleted via memory tool";
function tombstoneOf(c, note, reason) {
  const rec = stripStored(note);
  const body = note.body.trim() === "" ? `(empty note ${note.note})` : note.body;
  return { ...rec, id: newId(), body, removed: c.now().toISOString(), removed_reason: reason, removed_session: c.session };
}
function notesEnv(c, reason = NOTE_DELETE_REASON) {
  return { store: c.store, maxChars: c.config.behavior.max_body_chars, tombstone: (n) => tombstoneOf(c, n, reason) };
}
async function memoryTool(c, cmd) {
  await c.store.ensureFresh();
  const out2 = await runMemoryCommand(notesEnv(c), cmd);
  if (cmd.command !== "view") c.log("memory_tool", { command: cmd.command, path: cmd.command === "rename" ? [cmd.old_path, cmd.new_path] : cmd.path });
  return out2;
}
async function removeNote(c, note, reason) {
  const [t] = await c.store.removeNotes([note.file], (n) => tombstoneOf(c, n, reason));
  if (!t) throw new NotFoundError(`no memory with id ${note.id}`);
  c.log("remove", { id: t.id, note: note.note, reason });
  return { removed: t.id, tombstone: t.file };
}
async function restoreNote(c, t) {
  const n = noteOfTombstone(t);
  if (n === null) return null;
  const p = resolveMemoryPath(c.store.notesDir, n.path);
  const note = await c.store.restoreNote(t.id, p.abs, n.text);
  c.log("restore", { id: t.id, note: n.path });
  return note;
}
function graph(c) {
  return c.services.links ??= new LinkGraph(c.store);
}
function closeGraph(c) {
  c.services.links?.close();
  c.services.links = null;
}
var ref = (m) => ({ id: m.id, title: titleOf(m), ...m.note !== void 0 ? { kind: "note", path: m.note } : { kind: "memory" } });
function backlinksOf(c, m) {
  return graph(c).backlinks(m.id).filter((e) => e.from.id !== m.id).map((e) => ({ ...ref(e.from), relation: e.relation }));
}
async function related(c, input) {
  await c.store.ensureFresh();
  const hasId = input.id !== void 0 && input.id !== null;
  const hasPath = input.path !== void 0 && input.path !== null;
  if (hasId === hasPath) throw new ValidationError("pass exactly one of id (a memory or note id) or path (a /memories path or a title)");
  const depth = input.depth ?? 1;
  if (!Number.isInteger(depth) || depth < 1 || depth > 3) throw new ValidationError(`depth must be 1, 2 or 3, got ${JSON.stringify(input.depth)}`);
  const types = input.relation_types?.map(relationName);
  const g = graph(c);
  let root;
  if (hasId) {
    await settleUnknownIds(c, [input.id]);
    root = requireActive(c, input.id);
  } else {
    const p = String(input.path);
    const found = g.resolve(p);
    if (!found) throw new NotFoundError(`nothing is at ${JSON.stringify(p.slice(0, 200))}: pass a /memories path (${MEMORIES_ROOT}/...), a title, or an id`);
    root = found;
  }
  const keep = (e) => types === void 0 || types.includes(e.relation);
  const seen = /* @__PURE__ */ new Map([[root.id, { m: root, depth: 0 }]]);
  const edges = [];
  const unresolved = [];
  const edgeKeys = /* @__PURE__ */ new Set();
  let frontier = [root];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const next2 = [];
    for (const m of frontier) {
      for (const e of [...g.outgoing(m.id), ...g.backlinks(m.id)].filter(keep)) {
        if (e.to === null) {
          if (e.from.id === m.id) unresolved.push({ from: m.id, relation: e.relation, target: e.target });
          continue;
        }
        const k = `${e.from.id} ${e.relation} ${e.to.id}`;
        if (!edgeKeys.has(k)) {
          edgeKeys.add(k);
          edges.push({ from: e.from.id, to: e.to.id, relation: e.relation });
        }
        const other = e.from.id === m.id ? e.to : e.from;
        if (!seen.has(other.id)) {
          seen.set(other.id, { m: other, depth: d });
          next2.push(other);
        }
      }
    }
    frontier = next2;
  }
  const node = (m, d) => ({ ...ref(m), depth: d, summary: summarize(m.body), ...input.with_bodies ? { body: m.body } : {} });
  const outgoing = g.outgoing(root.id).filter(keep).map((e) => ({ relation: e.relation, target: e.target, ...e.to ? { id: e.to.id } : {} }));
  const backlinks = g.backlinks(root.id).filter(keep).map((e) => ({ relation: e.relation, id: e.from.id }));
  c.log("related", { id: root.id, depth, nodes: seen.size });
  return {
    root: node(root, 0),
    outgoing,
    backlinks,
    nodes: [...seen.values()].filter((x) => x.depth > 0).map((x) => node(x.m, x.depth)),
    edges,
    unresolved
  };
}
function danglingLinks(c, limit) {
  const all = graph(c).dangling();
  return {
    count: all.length,
    items: all.slice(0, limit).map((e) => ({ from: e.from.id, ...e.from.note !== void 0 ? { path: e.from.note } : {}, relation: e.relation, target: e.target }))
  };
}
function structureFilter(tags, category) {
  if (tags.length === 0 && category === null) return null;
  const want = tags.map((t) => t.replace(/^#/, "").toLowerCase());
  const cat = category?.toLowerCase() ?? null;
  return (m) => {
    const s2 = structureOf(m);
    return want.every((t) => s2.tags.includes(t)) && (cat === null || s2.categories.includes(cat));
  };
}

// server/src/core/sync/renames.ts
import { existsSync as existsSync8, readdirSync as readdirSync7, readFileSync as readFileSync10 } from "node:fs";
import { join as join24 } from "node:path";
var RENAMES_DIR = ".renames";
function renameIds(storeDir) {
  const dir = join24(storeDir, RENAMES_DIR);
  if (!existsSync8(dir)) return [];
  return readdirSync7(dir).filter((f) => /^[0-9A-HJKMNP-TV-Z]{26}\.json$/.test(f)).map((f) => f.slice(0, 26)).sort();
}
function readRename(storeDir, id) {
  try {
    const r = JSON.parse(readFileSync10(join24(storeDir, RENAMES_DIR, `${id}.json`), "utf8"));
    return typeof r.old_scope === "string" && typeof r.new_scope === "string" ? { ...r, id, include_tombstones: r.include_tombstones !== false } : null;
  } catch {
    return null;
  }
}
async function recordRename(storeDir, r) {
  if (!existsSync8(join24(storeDir, ".git"))) return false;
  await ensureDir(join24(storeDir, RENAMES_DIR));
  await writeFileAtomic(join24(storeDir, RENAMES_DIR, `${r.id}.json`), `${JSON.stringify(r, null, 2)}
`, 420);
  return true;
}

// server/src/core/ops/curation.ts
var MAX_USE_IDS = LIMITS.useIds;
function openEventLog(c) {
  c.services.events = new EventLog({
    dir: c.dir,
    session: c.session,
    enabled: c.config.telemetry.enabled,
    maxBytes: c.config.telemetry.max_bytes,
    now: () => c.now(),
    warn: c.warn
  });
}
function closeEventLog(c) {
  c.services.feedback?.persist();
  c.services.events?.close();
  c.services.events = null;
}
function eventLog(c) {
  return c.services.events ?? void 0;
}
async function curationPending(c, inView, expired) {
  const fields = await hitFields(c, inView);
  return {
    stale: fields.filter((f) => f.verification.status === "stale").length,
    never_verified: fields.filter((f) => f.verification.status === "never").length,
    drifted: fields.filter((f) => f.path_drift_missing > 0 || (f.commit_drift_count ?? 0) > 0).length,
    expired: expired.length,
    dead: deadCount(c, inView)
  };
}
function deadWeightRule(c) {
  return { min_age_days: c.config.curation.dead_weight_min_age_days, min_retrievals: c.config.curation.dead_weight_min_retrievals };
}
function deadCount(c, mems) {
  if (mems.length === 0 || !c.config.telemetry.enabled) return 0;
  const now = c.now().getTime();
  const days = DEFAULT_HEALTH_PARAMS.window_days;
  const windowStart = now - days * 864e5;
  const fold = foldUsage(readEvents(c.eventsDir).events, windowStart, new Set(mems.map((m) => m.id)));
  const rule = deadWeightRule(c);
  return mems.filter((m) => deadWeight(m, fold.byId.get(m.id), now, days, rule) !== null).length;
}
async function recordUse(c, input) {
  const raw = input.memory_ids;
  if (!Array.isArray(raw) || raw.length === 0) throw new ValidationError("memory_ids must be a non-empty array of the memory ids you retrieved");
  if (raw.length > MAX_USE_IDS) throw new ValidationError(`memory_ids has ${raw.length} entries: at most ${MAX_USE_IDS} per call`);
  if (!USE_OUTCOMES.includes(input.outcome)) {
    throw new ValidationError(`outcome must be one of ${USE_OUTCOMES.join(", ")}, got ${JSON.stringify(input.outcome)}`);
  }
  const note = checkNote(input.note, "note", false);
  const ids2 = [...new Set(raw.map((x, i) => checkId(x, `memory_ids[${i}]`)))];
  await c.store.ensureFresh();
  await settleUnknownIds(c, ids2);
  const known = (id) => c.store.holds(id) || (c.team?.store.holds(id) ?? false);
  const unknown = ids2.filter((id) => !known(id));
  const fields = { ids: ids2, outcome: input.outcome, ...note ? { note } : {}, unknown_ids: unknown };
  const written = eventLog(c)?.append("use", fields) ?? false;
  return { recorded: written ? ids2.length - unknown.length : 0, outcome: input.outcome, unknown_ids: unknown };
}
async function health(c, input, other = null) {
  const params = {
    window_days: checkLimit(input.window_days, "window_days", LIMITS.healthWindowDays, DEFAULT_HEALTH_PARAMS.window_days),
    top_k: checkLimit(input.top_k, "top_k", LIMITS.healthTopK, DEFAULT_HEALTH_PARAMS.top_k),
    min_applied: checkLimit(input.min_applied, "min_applied", LIMITS.healthMinApplied, DEFAULT_HEALTH_PARAMS.min_applied)
  };
  await c.store.ensureFresh();
  const active = [...c.store.active()];
  const tombstones = [...c.store.tombstones()];
  const report = await computeHealth(
    {
      now: c.now(),
      active,
      tombstones,
      events: readEvents(c.eventsDir).events,
      ...other !== null ? { alsoKnown: [...[...other.store.active()].map((m) => m.id), ...[...other.store.tombstones()].map((m) => m.id)] } : {},
      staleAfterDays: c.config.behavior.verification_stale_days,
      commitDrift: await repoDrift(c, active),
      deadWeight: deadWeightRule(c),
      origins: await originCheck(c),
      syncConflicts: await syncConflicts(c)
    },
    params
  );
  return { ...report, dangling_links: danglingLinks(c, params.top_k) };
}
async function syncConflicts(c) {
  const l = await listConflicts(c.dir);
  return { memories: l.memories, files: l.files.map((f) => f.file) };
}
async function originCheck(c) {
  const root = c.caller.repoRoot;
  if (!root) return null;
  return { root, known_remotes: await repoRemotes(root) };
}
async function migrateOrigin(c, input) {
  const url = (v, name) => {
    if (typeof v !== "string" || v.trim() === "") throw new ValidationError(`${name} must be a remote URL such as https://github.com/me/widgets.git or git@github.com:me/widgets.git`);
    if (v.length > LIMITS.queryChars) throw new ValidationError(`${name} is ${v.length} characters long: at most ${LIMITS.queryChars}`);
    const key = normalizeRepoUrl(v);
    if (key === null) throw new ValidationError(`${name} ${JSON.stringify(redactRemoteUrl(v))} is not a remote URL`);
    return { shown: redactRemoteUrl(v.trim()), key };
  };
  const from = url(input.from, "from");
  const to = url(input.to, "to");
  if (input.apply !== void 0 && typeof input.apply !== "boolean") throw new ValidationError("apply must be true or false");
  const apply = input.apply ?? false;
  await c.store.ensureFresh();
  const hit = (m) => m.origin.repo !== null && originRepoKey(m.origin) === from.key;
  const targets = [...c.store.active(), ...c.store.tombstones()].filter(hit).sort((a, b) => a.id.localeCompare(b.id));
  if (targets.length === 0) {
    throw new NotFoundError(`no memory or tombstone has origin ${from.shown} (compared as ${from.key}); cairn health lists the origins that match none of this repo's remotes`);
  }
  if (from.key === to.key && targets.every((m) => m.origin.repo === to.shown)) {
    throw new ValidationError(`from and to name the same repo (${from.key}): nothing to migrate`);
  }
  const result = { from: from.shown, to: to.shown, applied: apply, active: [], tombstoned: [] };
  for (const t of targets) {
    if (t.origin.repo === to.shown) continue;
    if (!apply) {
      (t.tombstoned ? result.tombstoned : result.active).push(t.id);
      continue;
    }
    let was = null;
    const m = await c.store.modify(t.id, (cur) => {
      if (!hit(cur) || cur.origin.repo === to.shown) return stripStored(cur);
      was = cur.origin.repo;
      return { ...stripStored(cur), origin: { ...cur.origin, repo: to.shown } };
    });
    if (was === null) continue;
    (m.tombstoned ? result.tombstoned : result.active).push(m.id);
    c.log("migrate_origin", { id: m.id, from: was, to: to.shown, tombstoned: m.tombstoned });
  }
  return result;
}
async function repoDrift(c, active) {
  const { repoRoot, repoKey } = c.caller;
  if (!repoRoot || !repoKey) return null;
  const mine = active.filter((m) => m.last_verified_at !== null && originRepoKey(m.origin) === repoKey);
  const counts = /* @__PURE__ */ new Map();
  if (mine.length > 0) {
    const res = await defaultCommitDriftCache.driftFor(repoRoot, mine.map((m) => ({ at: m.last_verified_at, head: m.verified_head ?? null })));
    mine.forEach((m, i) => {
      const n = res[i]?.commits_since_verify;
      if (typeof n === "number") counts.set(m.id, n);
    });
  }
  return { repo: repoKey, commitsSinceVerify: counts };
}
function renamed(scopes, from, to) {
  const out2 = [];
  for (const s2 of scopes) {
    const next2 = s2 === from ? to : s2.startsWith(`${from}:`) ? to + s2.slice(from.length) : s2;
    if (!out2.includes(next2)) out2.push(next2);
  }
  return out2;
}
async function renameScope(c, input, opts = {}) {
  const from = validateScope(input.old_scope, "old_scope");
  const to = validateScope(input.new_scope, "new_scope");
  if (from === to) throw new ValidationError(`old_scope and new_scope are both "${from}": give a different new_scope`);
  if (to.startsWith(`${from}:`)) throw new ValidationError(`new_scope "${to}" is nested inside old_scope "${from}": rename to a scope outside it`);
  if (!scopeAllowed(to, c.config.scopes.allowed)) {
    throw new ValidationError(`new_scope "${to}" is not allowed by scopes.allowed in config.toml: use one of ${c.config.scopes.allowed.join(", ")}`);
  }
  const withTombs = input.include_tombstones ?? true;
  if (typeof withTombs !== "boolean") throw new ValidationError("include_tombstones must be true or false");
  await c.store.ensureFresh();
  const hit = (m) => m.scopes.some((s2) => s2 === from || s2.startsWith(`${from}:`)) && (opts.only === void 0 || opts.only(m));
  const targets = [...c.store.active()].filter(hit);
  if (withTombs) targets.push(...[...c.store.tombstones()].filter(hit));
  if (targets.length === 0) {
    throw new NotFoundError(`no ${withTombs ? "memory or tombstone" : "active memory"} has scope "${from}" (or a scope nested under it)`);
  }
  const result = { active: [], tombstoned: [] };
  for (const t of targets.sort((a, b) => a.id.localeCompare(b.id))) {
    let changed = false;
    const m = await c.store.modify(t.id, (cur) => {
      const scopes = renamed(cur.scopes, from, to);
      changed = scopes.join("\0") !== cur.scopes.join("\0");
      return { ...stripStored(cur), scopes };
    });
    if (changed) (m.tombstoned ? result.tombstoned : result.active).push(m.id);
  }
  c.log("rename_scope", { old_scope: from, new_scope: to, include_tombstones: withTombs, ...result, ...opts.record === false ? { from_sync: true } : {} });
  if (opts.record !== false) await recordRename(c.dir, { id: newId(c.now().getTime()), old_scope: from, new_scope: to, include_tombstones: withTombs, at: c.now().toISOString() });
  return result;
}
async function scopeDisable(c, input) {
  const scope = validateScope(input.scope, "scope");
  c.disabledScopes.add(scope);
  const disabled_scopes = [...c.disabledScopes].sort();
  c.log("scope_disable", { scope, disabled_scopes });
  return { disabled_scopes };
}
async function scopeEnable(c, input) {
  const scope = validateScope(input.scope, "scope");
  c.disabledScopes.delete(scope);
  const disabled_scopes = [...c.disabledScopes].sort();
  c.log("scope_enable", { scope, disabled_scopes });
  return { disabled_scopes };
}

// server/src/core/ops/shape.ts
var HIT_DEFAULTS = { confidence: "medium", category: "fact" };
var MIN_TEXT_CHARS = 60;
function leanHit(hit) {
  const out2 = {};
  for (const [k, v] of Object.entries(hit)) {
    if (v === void 0 || v === null) continue;
    if (k === "confidence" && v === HIT_DEFAULTS.confidence) continue;
    if (k === "category" && v === HIT_DEFAULTS.category) continue;
    if (k === "created" && v === hit.updated) continue;
    if ((k === "path_drift_checked" || k === "path_drift_missing") && v === 0) continue;
    if (k === "verification") {
      const ver = v;
      if (ver.status === "never") continue;
      out2.verification = { status: ver.status, age_days: ver.age_days };
      continue;
    }
    if (Array.isArray(v) && v.length === 0 && k !== "scopes") continue;
    out2[k] = v;
  }
  return out2;
}
function staleAfter(hits, days) {
  return hits.some((h) => h.verification !== void 0) ? { stale_after_days: days } : {};
}
function checkMaxChars(v) {
  if (v === void 0 || v === null) return null;
  if (typeof v !== "number" || !Number.isInteger(v) || v < LIMITS.minResponseChars || v > LIMITS.responseChars) {
    throw new ValidationError(`max_chars must be a whole number from ${LIMITS.minResponseChars} to ${LIMITS.responseChars} (characters of the JSON answer), got ${JSON.stringify(v)}`);
  }
  return v;
}
function shorten(text2, max) {
  if (text2.length <= max) return text2;
  const room = Math.max(1, max - 1);
  let cut = text2.slice(0, room);
  const sp = cut.search(/\s\S*$/);
  if (sp > room / 2) cut = cut.slice(0, sp);
  return `${cut.trimEnd()}…`;
}
var size = (o) => JSON.stringify(o).length;
function fitBudget(answer, budget, opts) {
  if (size(answer) <= budget) return answer;
  const items = [...answer[opts.key]].map((x) => ({ ...x }));
  const shortened = /* @__PURE__ */ new Set();
  const dropped = [];
  const build = () => {
    const truncated = opts.listDropped ? { [opts.dropKey]: dropped.map((d) => d.id), [opts.shortKey]: [...shortened].sort((a, b) => a - b).map((i) => items[i].id) } : { [opts.dropKey]: dropped.length, [opts.shortKey]: shortened.size };
    return { ...answer, [opts.key]: items, truncated };
  };
  for (; ; ) {
    const over = size(build()) - budget;
    if (over <= 0) return build();
    let best = -1;
    let bestKey = "";
    let bestLen = MIN_TEXT_CHARS;
    items.forEach((it, i) => {
      for (const k of opts.textKeys) {
        const t2 = it[k];
        if (typeof t2 === "string" && t2.length > bestLen) {
          best = i;
          bestKey = k;
          bestLen = t2.length;
        }
      }
    });
    if (best === -1) break;
    const t = items[best][bestKey];
    items[best][bestKey] = shorten(t, Math.max(MIN_TEXT_CHARS, t.length - over - 1));
    shortened.add(best);
  }
  while (items.length > 0 && size(build()) > budget) {
    dropped.unshift(items.pop());
    shortened.delete(items.length);
  }
  return build();
}
function capPage(page, cursorFor, budget = LIMITS.responseChars) {
  if (size(page) <= budget) return page;
  const items = [...page.items];
  const probe2 = page.next_cursor ?? cursorFor(items[items.length - 1]);
  let total = size({ items: [], next_cursor: probe2 });
  let n = 0;
  for (const it of items) {
    const add = size(it) + (n > 0 ? 1 : 0);
    if (total + add > budget && n > 0) break;
    total += add;
    n++;
  }
  const kept = items.slice(0, n);
  return { items: kept, next_cursor: n < items.length ? cursorFor(kept[kept.length - 1]) : page.next_cursor };
}

// server/src/core/curation/feedback.ts
import { closeSync as closeSync8, existsSync as existsSync9, fstatSync as fstatSync5, lstatSync as lstatSync9, openSync as openSync8, promises as fsp11, readFileSync as readFileSync11, readSync as readSync4, renameSync as renameSync6, rmSync as rmSync8, statSync as statSync8, writeFileSync as writeFileSync3 } from "node:fs";
import { basename as basename6, join as join25 } from "node:path";
import { gunzipSync as gunzipSync2 } from "node:zlib";
var APPLIED_HALF = 3;
var SUNK_HALF = 0.5;
var IDLE_HALF = 50;
var IDLE_SHARE = 0.1;
var FOLD_FILE = "feedback.json";
var FOLD_VERSION = 1;
var SAVE_AFTER_BYTES = 256 * 1024;
var FeedbackFold = class {
  constructor(dir, settings, now, saveAfterBytes = SAVE_AFTER_BYTES) {
    this.dir = dir;
    this.settings = settings;
    this.saveAfterBytes = saveAfterBytes;
    this.t0 = now;
    this.hMs = settings.halfLifeDays * 864e5;
  }
  dir;
  settings;
  saveAfterBytes;
  acc = /* @__PURE__ */ new Map();
  t0;
  /** archive names folded in (the saved fold is valid while they all exist) */
  archives = [];
  /** log bytes folded since the fold was last saved or restored */
  unsaved = 0;
  /** The sums changed since the fold was last saved or restored. */
  changed = false;
  hMs;
  offset = 0;
  ino = -1;
  started = false;
  /** false while prime() lists the store directory: refresh() then leaves the fold empty. */
  primed = true;
  /**
   * The first full read, with the store directory listed off the main thread (a big store's
   * listing, for the log's archives, is ~85 ms of blocking at 50k memories). Until it is done
   * the fold tracks nothing (the plain ranking); a failure leaves the next refresh to read.
   */
  async prime() {
    this.primed = false;
    let names;
    try {
      names = await fsp11.readdir(this.dir);
    } catch {
      names = void 0;
    }
    this.primed = true;
    try {
      if (!this.started) this.fullRead(names);
    } catch {
    }
  }
  /** Brings the fold up to the end of the log. Never throws: feedback is an optional signal. */
  refresh() {
    if (!this.primed) return;
    try {
      const file = join25(this.dir, ACTIVE_LOG);
      let st;
      try {
        st = statSync8(file);
      } catch {
        if (!this.started) this.fullRead();
        return;
      }
      if (!this.started || st.ino !== this.ino || st.size < this.offset) return this.fullRead();
      if (st.size > this.offset) this.readActiveFrom(file);
    } catch {
    }
  }
  /**
   * A line this process just appended (EventLog.onAppend): folded without reading the file back
   * when the fold was exactly at its start; otherwise the next refresh reads it (another process
   * wrote in between, or the log rotated).
   */
  ownAppend(line, sizeAfter, ino) {
    if (!this.started || ino !== this.ino) return;
    const bytes = Buffer.byteLength(line);
    if (sizeAfter - bytes !== this.offset) return;
    const e = parseLine(line);
    if (e) this.fold(e);
    this.offset = sizeAfter;
    this.unsaved += bytes;
  }
  fullRead(listed) {
    if (this.restore()) {
      this.saveIfWorth();
      return;
    }
    this.acc.clear();
    this.started = true;
    this.offset = 0;
    this.ino = -1;
    this.archives = [];
    this.unsaved = 0;
    for (const f of listLogFiles(this.dir, listed)) {
      if (f.rotatedAt === null) continue;
      this.archives.push(basename6(f.file).replace(/\.gz$/, ""));
      try {
        const raw = readFileSync11(f.file);
        this.unsaved += raw.length;
        for (const line of (f.compressed ? gunzipSync2(raw) : raw).toString("utf8").split("\n")) {
          const e = parseLine(line);
          if (e) this.fold(e);
        }
      } catch {
      }
    }
    const file = join25(this.dir, ACTIVE_LOG);
    try {
      for (const e of this.readBytes(file, 0)) this.fold(e);
      this.unsaved += this.offset;
    } catch {
    }
    this.saveIfWorth();
  }
  /** The saved fold, when it still describes the log's start (see the top of this file). */
  restore() {
    let saved;
    try {
      saved = JSON.parse(readFileSync11(join25(this.dir, ".cache", FOLD_FILE), "utf8"));
    } catch {
      return false;
    }
    try {
      if (saved.v !== FOLD_VERSION || saved.hMs !== this.hMs || !Array.isArray(saved.acc) || !Array.isArray(saved.archives)) return false;
      const st = statSync8(join25(this.dir, ACTIVE_LOG));
      if (st.ino !== saved.ino || st.size < saved.offset) return false;
      const present = (name) => [name, `${name}.gz`].some((n) => {
        try {
          return lstatSync9(join25(this.dir, n)).isFile();
        } catch {
          return false;
        }
      });
      if (!saved.archives.every(present)) return false;
      this.acc.clear();
      for (const [id, applied, sunk, idle] of saved.acc) this.acc.set(id, { applied, sunk, idle });
      this.t0 = saved.t0;
      this.archives = saved.archives;
      this.started = true;
      this.ino = saved.ino;
      this.offset = saved.offset;
      this.unsaved = 0;
      this.changed = false;
      if (st.size > saved.offset) this.readActiveFrom(join25(this.dir, ACTIVE_LOG));
      return true;
    } catch {
      this.acc.clear();
      return false;
    }
  }
  /** Saves the fold when enough of the log was read since the last save (never throws). */
  saveIfWorth() {
    if (this.unsaved < this.saveAfterBytes || this.ino < 0) return;
    const cache2 = join25(this.dir, ".cache");
    try {
      if (!existsSync9(this.dir)) return;
      ensureOwnDirSync(cache2);
      const saved = { v: FOLD_VERSION, t0: this.t0, hMs: this.hMs, ino: this.ino, offset: this.offset, archives: this.archives, acc: [...this.acc].map(([id, a]) => [id, a.applied, a.sunk, a.idle]) };
      this.unsaved = 0;
      this.changed = false;
      const file = join25(cache2, FOLD_FILE);
      const tmp = tempPathFor(file);
      try {
        writeFileSync3(tmp, JSON.stringify(saved), { mode: 384, flag: "wx" });
        renameSync6(tmp, file);
      } catch {
        rmSync8(tmp, { force: true });
      }
    } catch {
    }
  }
  readActiveFrom(file) {
    const from = this.offset;
    for (const e of this.readBytes(file, this.offset)) this.fold(e);
    this.unsaved += this.offset - from;
  }
  /**
   * A server's close: saves the fold if enough of the log was folded since the last save and some
   * of it counted (a session of refused calls, which no fold counts, leaves the cache as it was;
   * the next process then reads those lines again, nothing more).
   */
  persist() {
    if (this.changed) this.saveIfWorth();
  }
  /** Complete lines from `from` to the end of the file; advances the offset past the last newline. */
  readBytes(file, from) {
    const fd = openSync8(file, "r");
    try {
      const st = fstatSync5(fd);
      this.ino = st.ino;
      const len = st.size - from;
      if (len <= 0) return [];
      const buf = Buffer.alloc(len);
      const n = readSync4(fd, buf, 0, len, from);
      const text2 = buf.subarray(0, n).toString("utf8");
      const end = text2.lastIndexOf("\n");
      if (end === -1) return [];
      this.offset = from + Buffer.byteLength(text2.slice(0, end + 1));
      const out2 = [];
      for (const line of text2.slice(0, end).split("\n")) {
        const e = parseLine(line);
        if (e) out2.push(e);
      }
      return out2;
    } finally {
      closeSync8(fd);
    }
  }
  slot(id) {
    this.changed = true;
    let a = this.acc.get(id);
    if (!a) this.acc.set(id, a = { applied: 0, sunk: 0, idle: 0 });
    return a;
  }
  fold(e) {
    const t = Date.parse(e.ts);
    if (Number.isNaN(t)) return;
    const w2 = Math.pow(2, (t - this.t0) / this.hMs);
    const use = useOf(e);
    if (use) {
      for (const id of use.ids) {
        const a = this.slot(id);
        if (use.outcome === "applied") a.applied += w2;
        else if (use.outcome === "contradicted" || use.outcome === "corrected") a.sunk += w2;
        if (use.outcome === "ignored") a.idle += w2;
        else a.idle = 0;
      }
      return;
    }
    if ((e.kind === "search" || e.kind === "show") && actorOf(e) === "model") {
      for (const id of retrievedIds(e)) this.slot(id).idle += w2;
    }
  }
  /** The parts of one memory's multiplier at `now`; multiplier 1 for a memory with no events. */
  parts(id, now) {
    const a = this.acc.get(id);
    if (!a) return { applied: 0, sunk: 0, idle: 0, multiplier: 1 };
    const fade = Math.pow(2, (this.t0 - now) / this.hMs);
    const applied = a.applied * fade;
    const sunk = a.sunk * fade;
    const idle = a.idle * fade;
    const f = applied / (applied + APPLIED_HALF) - sunk / (sunk + SUNK_HALF) - IDLE_SHARE * idle / (idle + IDLE_HALF);
    const multiplier = 1 + this.settings.maxFraction * Math.max(-1, Math.min(1, f));
    return { applied: round(applied), sunk: round(sunk), idle: round(idle), multiplier: round(multiplier) };
  }
  get tracked() {
    return this.acc.size;
  }
};
function parseLine(line) {
  if (line.trim() === "") return null;
  try {
    const v = JSON.parse(line);
    return typeof v === "object" && v !== null && typeof v.ts === "string" && typeof v.kind === "string" ? v : null;
  } catch {
    return null;
  }
}
var round = (x) => Math.round(x * 1e3) / 1e3;
function rerankWithinBands(hits, multiplier) {
  const out2 = [];
  let i = 0;
  while (i < hits.length) {
    let j = i;
    while (j < hits.length && hits[j].relevance === hits[i].relevance) j++;
    const run = hits.slice(i, j).map((h, k) => ({ h, k, s: h.score * multiplier(h) }));
    run.sort((a, b) => b.s - a.s || a.k - b.k);
    out2.push(...run.map((r) => r.h));
    i = j;
  }
  return out2;
}

// server/src/core/ops/retrieval.ts
function actorFor(c, forUser) {
  if (forUser !== void 0 && typeof forUser !== "boolean") throw new ValidationError("for_user must be true or false");
  return forUser === true ? "user" : c.actor;
}
function checkScopeFilters(scopes) {
  if (scopes === void 0 || scopes === null) return [];
  if (!Array.isArray(scopes)) throw new ValidationError('scopes must be an array of scopes or globs, like ["tools", "projects:*"]');
  if (scopes.length > LIMITS.scopeFilters) throw new ValidationError(`scopes has ${scopes.length} entries: at most ${LIMITS.scopeFilters} filters are allowed`);
  return scopes.map((s2) => validateScopeFilter(s2));
}
async function fullRecords(c, mems) {
  const hits = await ownedHitFields(c, mems, true);
  return hits.map((h, i) => {
    const m = mems[i];
    return {
      ...h,
      body: m.body,
      aliases: m.aliases ? [...m.aliases] : [],
      source: m.source,
      origin: m.origin,
      expires: m.expires,
      ...m.merged_from && m.merged_from.length > 0 ? { merged_from: [...m.merged_from] } : {},
      backlinks: backlinksOf(ownerOf(c, m), m)
    };
  });
}
async function show(c, input) {
  const budget = checkMaxChars(input.max_chars) ?? LIMITS.responseChars;
  const fit = (ans) => fitBudget(ans, budget, { key: "memories", textKeys: ["body"], dropKey: "ids_dropped", shortKey: "bodies_shortened", listDropped: true });
  const actor = actorFor(c, input.for_user);
  await freshEverywhere(c, true);
  await settleUnknownIds(c, [input.id, ...Array.isArray(input.ids) ? input.ids.slice(0, MAX_IDS_PER_CALL) : []]);
  const hasId = input.id !== void 0 && input.id !== null;
  const hasIds = input.ids !== void 0 && input.ids !== null;
  if (hasId === hasIds) throw new ValidationError("pass exactly one of id (one memory) or ids (up to 10)");
  const offset = input.body_offset;
  if (offset !== void 0 && offset !== null) {
    if (!hasId) throw new ValidationError("body_offset pages through one memory's body: pass it with id, not ids");
    if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) throw new ValidationError(`body_offset must be a whole number from 0, got ${JSON.stringify(offset)}`);
  }
  if (hasId) {
    const { m } = requireActiveAny(c, input.id);
    c.log("show", { ids: [m.id], actor });
    const from = typeof offset === "number" ? offset : 0;
    if (from > 0 && from >= m.body.length) throw new ValidationError(`body_offset ${from} is past the end of the body (${m.body.length} characters)`);
    const [rec] = await fullRecords(c, [m]);
    const sliced = from > 0 ? { ...rec, body: m.body.slice(from) } : rec;
    const out2 = fit({ memories: [sliced], missing: [] });
    const t = out2.truncated;
    if (t && t.bodies_shortened.length > 0) {
      const shown2 = out2.memories[0].body.length - 1;
      Object.assign(t, { body_chars: m.body.length, next_body_offset: from + shown2 });
    }
    return out2;
  }
  if (!Array.isArray(input.ids) || input.ids.length === 0) throw new ValidationError("ids must be a non-empty array of memory ids");
  if (input.ids.length > MAX_IDS_PER_CALL) throw new ValidationError(`ids has ${input.ids.length} entries: at most ${MAX_IDS_PER_CALL} per call`);
  const ids2 = [...new Set(input.ids.map((x, i) => checkId(x, `ids[${i}]`)))];
  const found = [];
  const missing = [];
  for (const id of ids2) {
    const f = findAny(c, id);
    if (f && !f.tombstoned) found.push(f.m);
    else missing.push({ id, reason: f ? tombstonedMessage(f.m) : `no memory with id ${id}` });
  }
  c.log("show", { ids: found.map((m) => m.id), missing: missing.map((m) => m.id), actor });
  return fit({ memories: await fullRecords(c, found), missing });
}
function newestPage(source, keep, after, limit) {
  const buf = [];
  let more = false;
  for (const m of source) {
    if (after !== null && m.id >= after) continue;
    if (!keep(m)) continue;
    if (buf.length === limit && m.id < buf[limit - 1].id) {
      more = true;
      continue;
    }
    let i = buf.length;
    while (i > 0 && buf[i - 1].id < m.id) i--;
    buf.splice(i, 0, m);
    if (buf.length > limit) {
      buf.pop();
      more = true;
    }
  }
  return { page: buf, next_cursor: more && buf.length ? encodeCursor(buf[buf.length - 1].id) : null };
}
function* activeEverywhere(c) {
  yield* c.store.active();
  const t = c.team;
  if (t === null) return;
  for (const m of t.store.active()) if (!c.store.holds(m.id)) yield m;
}
async function freshEverywhere(c, read) {
  await c.store.ensureFresh(read ? { read: true } : void 0);
  if (c.team !== null) await c.team.store.ensureFresh(read ? { read: true } : void 0);
}
async function listEach(c, input, emit) {
  await freshEverywhere(c, true);
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, "limit", LIMITS.pageSize, LIMITS.defaultPageSize);
  const match = scopeFilterMatcher(filters);
  const now = c.now();
  const all = [...activeEverywhere(c)].filter((m) => isVisible(c.disabledScopes, m, now) && match(m.scopes));
  all.sort((a, b) => a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
  for (let at2 = 0; at2 < all.length; at2 += limit) {
    const page = all.slice(at2, at2 + limit);
    const hits = await ownedHitFields(c, page);
    emit(hits.map((h, i) => {
      const m = page[i];
      return { ...h, summary: summarize(m.body), ...input.with_bodies ? { body: m.body } : {} };
    }));
  }
  c.log("list", { scopes: filters, limit, all: true, returned_count: all.length, actor: c.actor });
  return all.length;
}
async function list(c, input) {
  await freshEverywhere(c, true);
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, "limit", LIMITS.pageSize, LIMITS.defaultPageSize);
  const after = input.cursor === void 0 || input.cursor === null ? null : decodeCursor(input.cursor);
  const match = scopeFilterMatcher(filters);
  const now = c.now();
  const { page, next_cursor } = newestPage(activeEverywhere(c), (m) => isVisible(c.disabledScopes, m, now) && match(m.scopes), after, limit);
  const hits = await ownedHitFields(c, page);
  const items = hits.map((h, i) => {
    const m = page[i];
    return { ...h, summary: summarize(m.body), ...input.with_bodies ? { body: m.body } : {} };
  });
  const capped = capPage({ items, next_cursor }, (last) => encodeCursor(last.id));
  c.log("list", { scopes: filters, limit, returned: capped.items.map((x) => x.id), actor: c.actor });
  return capped;
}
async function scopeOverview(c, input, opts = { curation: true }) {
  await freshEverywhere(c, true);
  const auto = input.auto_scope ?? true;
  const now = c.now();
  const inView = [];
  const expired = [];
  const scopes = {};
  const elsewhere = /* @__PURE__ */ new Map();
  let elsewhereTotal = 0;
  for (const m of c.store.active()) {
    if (auto && !inCallerView(c, m)) {
      if (!isVisible(c.disabledScopes, m, now)) continue;
      elsewhereTotal++;
      const key = repoKeyOf(m);
      const e = elsewhere.get(key);
      if (e) e.count++;
      else elsewhere.set(key, { repo: m.origin.repo ?? m.origin.worktree_root ?? key, count: 1 });
      continue;
    }
    if (isExpired(m, now)) {
      expired.push(m);
      continue;
    }
    if (!isVisible(c.disabledScopes, m, now)) continue;
    inView.push(m);
    for (const s2 of m.scopes) scopes[s2] = (scopes[s2] ?? 0) + 1;
  }
  const sorted = {};
  for (const k of Object.keys(scopes).sort()) sorted[k] = scopes[k];
  const repos = [...elsewhere.values()].sort((a, b) => b.count - a.count || (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : 0));
  const out2 = {
    current_repo: c.caller.repoUrl ?? c.caller.repoRoot,
    view: !auto ? "all" : c.caller.repoKey !== null ? "repo" : "outside_repo",
    global_scopes: [...c.config.scopes.global],
    total: inView.length,
    scopes: sorted,
    disabled_scopes: [...c.disabledScopes].sort(),
    elsewhere: { total: elsewhereTotal, repos: repos.slice(0, ELSEWHERE_REPOS_MAX) },
    curation_pending: opts.curation ? await curationPending(c, inView, expired) : { stale: 0, never_verified: 0, drifted: 0, expired: expired.length, dead: 0 },
    // The repository's team store (README "Team memory"): all of it is in this repo's view.
    ...c.team !== null ? { team: teamOverview(c.team, now) } : {}
  };
  c.log("scope_overview", { auto_scope: auto, total: out2.total, elsewhere: elsewhereTotal });
  return out2;
}
function teamOverview(t, now) {
  const scopes = {};
  let total = 0;
  for (const m of t.store.active()) {
    if (!isVisible(t.disabledScopes, m, now)) continue;
    total++;
    for (const s2 of m.scopes) scopes[s2] = (scopes[s2] ?? 0) + 1;
  }
  const sorted = {};
  for (const k of Object.keys(scopes).sort()) sorted[k] = scopes[k];
  return { dir: t.dir, total, scopes: sorted };
}
function peekOverview(dir, global2, callerRepoKey, now) {
  const groups = readOverview(dir);
  if (groups === null) return null;
  let total = 0;
  let elsewhere = 0;
  const scopes = {};
  for (const g of groups) {
    const expired = isExpired(g, now);
    if (!inViewKey(callerRepoKey, global2, g.repo, g.scopes)) {
      if (!expired) elsewhere += g.n;
      continue;
    }
    if (expired) continue;
    total += g.n;
    for (const s2 of g.scopes) scopes[s2] = (scopes[s2] ?? 0) + g.n;
  }
  return { total, scopes, elsewhere, outside: callerRepoKey === null };
}
var ELSEWHERE_REPOS_MAX = 10;
function inCallerView(c, m) {
  return inViewKey(c.caller.repoKey, c.config.scopes.global, repoKeyOf(m), m.scopes);
}
var MAX_QUERY_CHARS = LIMITS.queryChars;
function checkAlternates(v) {
  if (v === void 0 || v === null) return [];
  if (!Array.isArray(v)) throw new ValidationError('alternates must be an array of rephrasings of the query, like ["preferred editor", "vim emacs vscode"]');
  if (v.length > LIMITS.alternates) throw new ValidationError(`alternates has ${v.length} entries: at most ${LIMITS.alternates} are accepted`);
  const out2 = [];
  v.forEach((a, i) => {
    if (typeof a !== "string" || a.trim() === "") throw new ValidationError(`alternates[${i}] must be a non-empty string`);
    if (a.length > MAX_QUERY_CHARS) throw new ValidationError(`alternates[${i}] is ${a.length} characters long: at most ${MAX_QUERY_CHARS} are accepted`);
    if (!out2.includes(a.trim())) out2.push(a.trim());
  });
  return out2;
}
function checkTags(v) {
  if (v === void 0 || v === null) return [];
  if (!Array.isArray(v) || v.some((t) => typeof t !== "string" || t.replace(/^#/, "").trim() === "")) throw new ValidationError('tags must be an array of tags, like ["style", "db"] (with or without the #)');
  if (v.length > LIMITS.scopeFilters) throw new ValidationError(`tags has ${v.length} entries: at most ${LIMITS.scopeFilters} are accepted`);
  return [...new Set(v.map((t) => t.replace(/^#/, "").trim().toLowerCase()))];
}
function checkCategory(v) {
  if (v === void 0 || v === null) return null;
  if (typeof v !== "string" || v.trim() === "") throw new ValidationError('category must be an observation category, like "decision" (from "- [decision] ...")');
  return v.trim().toLowerCase();
}
function live(c) {
  const l = c.services.index;
  if (l === null) throw new Error("the search index is not open (Cairn.open opens it)");
  return l;
}
async function openIndex(c, progress) {
  const l = new LiveIndex(c.store, { synonyms: c.config.search.synonyms, watch: c.watch, oneShot: c.oneShot, warn: c.warn, ...progress ? { progress } : {} });
  c.services.index = l;
  await l.open();
  const embedder = createEmbedder(c.config.embed, c.warn);
  if (embedder !== null) {
    const leg = new SemanticLeg(c.store, embedder, { watch: c.watch, warn: c.warn, progress: embedProgress(c) });
    c.services.semantic = leg;
    await leg.open();
  }
}
var EMBED_NOTE_MIN = 100;
function embedProgress(c) {
  if (c.watch) return void 0;
  if (!process.stderr.isTTY) {
    return (done, total) => {
      if (done >= total && total >= EMBED_NOTE_MIN) process.stderr.write(`embedded ${total} memories for semantic search
`);
    };
  }
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (total < EMBED_NOTE_MIN || done < total && now - last < 500) return;
    last = now;
    process.stderr.write(`\rembedding memories for semantic search: ${done}/${total}${done >= total ? "\n" : ""}`);
  };
}
async function closeIndex(c) {
  const l = c.services.index;
  const s2 = c.services.semantic;
  c.services.index = null;
  c.services.semantic = null;
  if (s2 !== null) await s2.close();
  if (l !== null) await l.close();
}
async function semanticGateOptions(c) {
  const s2 = c.services.semantic;
  if (s2 === null) return {};
  if (!await s2.readyForSearch()) return {};
  if (s2.index === null) return {};
  return {
    neighbours: (text2, limit) => s2.neighbours(text2, limit),
    removedNeighbours: (text2, limit) => s2.removedNeighbours(text2, limit),
    semanticRule: calibrationFor(s2.index.embedderId).gate
  };
}
function candidatesFor(c, text2, limit) {
  return live(c).index.candidatesFor(text2, limit);
}
function candidateRecordsFor(c, text2, limit) {
  return live(c).index.candidateDocsFor(text2, limit);
}
function searchFilter(c, scopes, autoScope, tags = [], category = null) {
  const disabled = [...c.disabledScopes].sort();
  const repo = c.caller.repoKey;
  const structural = structureFilter(tags, category);
  if (c.storeKind === "team") autoScope = false;
  if (scopes.length === 0 && disabled.length === 0 && !autoScope && structural === null) return {};
  const match = scopes.length > 0 ? scopeFilterMatcher(scopes) : null;
  const filter = (m) => {
    if (disabled.length > 0 && isDisabled(c.disabledScopes, m)) return false;
    if (match !== null && !match(m.scopes)) return false;
    if (autoScope && !inCallerView(c, m)) return false;
    return structural === null || structural(m);
  };
  return { filter, filterKey: JSON.stringify([scopes, disabled, autoScope ? repo ?? ["outside", c.config.scopes.global] : false, ...structural ? [tags, category] : []]) };
}
async function search(c, input) {
  if (typeof input.query !== "string" || input.query.trim() === "") {
    throw new ValidationError("query must be a non-empty string: the words or identifiers to look for");
  }
  if (input.query.length > MAX_QUERY_CHARS) {
    throw new ValidationError(`query is ${input.query.length} characters long: at most ${MAX_QUERY_CHARS} are accepted; search with the key words`);
  }
  const max = checkLimit(input.max_results, "max_results", LIMITS.maxResults, c.config.behavior.default_max_results);
  const filters = checkScopeFilters(input.scopes);
  if (input.expand_top !== void 0 && typeof input.expand_top !== "boolean") throw new ValidationError("expand_top must be true or false");
  if (input.auto_scope !== void 0 && typeof input.auto_scope !== "boolean") throw new ValidationError("auto_scope must be true or false");
  if (input.explain !== void 0 && typeof input.explain !== "boolean") throw new ValidationError("explain must be true or false");
  const autoScope = input.auto_scope ?? true;
  const actor = actorFor(c, input.for_user);
  const alternates = checkAlternates(input.alternates);
  const tags = checkTags(input.tags);
  const category = checkCategory(input.category);
  const budget = checkMaxChars(input.max_chars) ?? LIMITS.responseChars;
  await freshEverywhere(c, true);
  const fb = feedbackFold(c);
  const nowMs = c.now().getTime();
  const limit = fb ? Math.max(max, Math.min(LIMITS.maxResults, max + FEEDBACK_POOL_EXTRA)) : max;
  const sourceOf = (s2) => ({
    l: live(s2),
    sem: s2.services.semantic,
    opts: {
      // With feedback on, a few more candidates so a much-applied memory just below the cut can rise.
      limit,
      now: c.now().getTime(),
      halfLifeDays: c.config.behavior.recency_half_life_days,
      ...teamShadowed(c, s2, searchFilter(s2, filters, autoScope, tags, category))
    }
  });
  const ranked = await rankedAcross(c.team === null ? [sourceOf(c)] : [sourceOf(c), sourceOf(c.team)], input.query, alternates, limit);
  const parts = (h) => fb?.parts(h.doc.id, nowMs) ?? { applied: 0, sunk: 0, idle: 0, multiplier: 1 };
  const found = (fb ? rerankWithinBands(ranked, (h) => parts(h).multiplier) : ranked).slice(0, max);
  const expand = input.expand_top === true && found[0]?.relevance === "high";
  const fields = await ownedHitFields(c, found.map((h) => h.doc), expand);
  const hits = found.map((h, i) => {
    const { path_drift, commit_drift, ...common } = fields[i];
    const hit = { ...common, snippet: h.snippet, score: h.score, relevance: h.relevance, match_terms: h.matchTerms };
    if (expand && i === 0) Object.assign(hit, { body: h.doc.body, path_drift, commit_drift });
    if (input.explain === true) hit.explain = explainHit(h, parts(h), nowMs, c.config.behavior.recency_half_life_days, alternates.length > 0);
    return hit;
  });
  const lean = hits.map((h) => leanHit(h));
  const out2 = fitBudget({ hits: lean, ...staleAfter(lean, c.config.behavior.verification_stale_days) }, budget, {
    key: "hits",
    textKeys: ["body", "snippet"],
    dropKey: "hits_dropped",
    shortKey: "snippets_shortened"
  });
  c.log("search", {
    query: input.query,
    ...alternates.length > 0 ? { alternates } : {},
    scopes: filters,
    ...tags.length > 0 ? { tags } : {},
    ...category !== null ? { category } : {},
    auto_scope: autoScope,
    max_results: max,
    hits: out2.hits.map((h) => ({ id: h.id, relevance: h.relevance })),
    actor
  });
  return out2;
}
function teamShadowed(c, s2, f) {
  if (s2 === c) return f;
  const inner = f.filter;
  const own2 = c.store;
  return { filter: (m) => !own2.holds(m.id) && (inner === void 0 || inner(m)) };
}
var FEEDBACK_PRIME_MIN = 1e4;
var FEEDBACK_POOL_EXTRA = 5;
function feedbackFold(c) {
  const r = c.config.ranking;
  if (!r.feedback || r.feedback_max_percent === 0) return null;
  let fb = c.services.feedback;
  if (!fb) {
    const fold = new FeedbackFold(c.dir, { halfLifeDays: r.feedback_half_life_days, maxFraction: r.feedback_max_percent / 100 }, c.now().getTime());
    c.services.feedback = fb = fold;
    c.services.events?.onAppend((line, size2, ino) => fold.ownAppend(line, size2, ino));
    if (c.watch && c.store.activeCount >= FEEDBACK_PRIME_MIN) {
      void fold.prime();
      return null;
    }
  }
  fb.refresh();
  return fb.tracked > 0 ? fb : null;
}
function explainHit(h, fb, now, halfLifeDays, fused) {
  const r4 = (x) => Math.round(x * 1e4) / 1e4;
  const recency = fused || h.fused ? 1 : 1 + RECENCY_WEIGHT * Math.pow(0.5, Math.max(0, now - recencyOf(h.doc)) / (halfLifeDays * 864e5));
  return { bm25: r4(h.score / recency), ...h.semantic !== void 0 ? { semantic: h.semantic } : {}, recency: r4(recency), feedback: fb, final: r4(h.score * fb.multiplier) };
}
async function rankedAcross(sources, query, alternates, limit) {
  const byScore = (a, b) => b.score - a.score || (a.doc.id < b.doc.id ? 1 : a.doc.id > b.doc.id ? -1 : 0);
  const vecs = await Promise.all(sources.map(async (s2) => s2.sem && await s2.sem.readyForSearch() && s2.sem.complete ? s2.sem.index : null));
  const anyVec = vecs.some((v) => v !== null && v.size > 0);
  if (alternates.length === 0 && !anyVec) {
    if (sources.length === 1) return sources[0].l.index.search(query, sources[0].opts);
    return sources.flatMap((s2) => s2.l.index.search(query, s2.opts)).sort(byScore).slice(0, limit);
  }
  const pool2 = Math.max(limit, FUSION_POOL);
  const texts = [query, ...alternates];
  const merged = (lists, order) => lists.length === 1 ? lists[0] : lists.flat().sort(order).slice(0, pool2);
  const lexical = texts.map((t) => merged(sources.map((s2) => s2.l.index.search(t, { ...s2.opts, limit: pool2 })), byScore));
  const perSource = await Promise.all(
    sources.map((s2, i) => {
      const v = vecs[i];
      return s2.sem && v && v.size > 0 ? s2.sem.search(texts, pool2, { now: s2.opts.now ?? Date.now(), allow: s2.opts.filter }) : Promise.resolve(texts.map(() => []));
    })
  );
  const semantic = texts.map((_, k) => merged(perSource.map((r) => r[k] ?? []), (a, b) => b.sim - a.sim || (a.doc.id < b.doc.id ? 1 : -1)));
  const embedderId = sources.find((s2) => s2.sem?.index)?.sem?.index?.embedderId;
  return fuse({
    limit,
    main: { lexical: lexical[0], semantic: semantic[0] },
    alternates: alternates.map((_, i) => ({ lexical: lexical[i + 1], semantic: semantic[i + 1] })),
    calibration: embedderId !== void 0 ? calibrationFor(embedderId) : DEFAULT_CALIBRATION
  });
}
var FUSION_POOL = 20;

// server/src/core/ops/writing.ts
var MAX_NOTE_CHARS = LIMITS.noteChars;
var LONE_SURROGATE2 = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function checkContent(c, v, arg = "content") {
  if (typeof v !== "string") throw new ValidationError(`${arg} must be a string holding the memory text`);
  const text2 = v.replace(/\r\n?/g, "\n").trim();
  if (text2 === "") throw new ValidationError(`${arg} is empty: write the fact to remember`);
  const nul = text2.indexOf("\0");
  if (nul !== -1) throw new ValidationError(`${arg} contains a NUL character at position ${nul}: a memory is plain text`);
  const lone = LONE_SURROGATE2.exec(text2);
  if (lone) throw new ValidationError(`${arg} contains an unpaired UTF-16 surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}) at position ${lone.index}: send valid Unicode text`);
  const max = c.config.behavior.max_body_chars;
  if (text2.length > max) throw new ValidationError(`${arg} is ${text2.length} characters, over the limit of ${max} (behavior.max_body_chars): store a shorter, durable fact`);
  return text2;
}
function checkScopes(c, v, arg = "scopes") {
  if (!Array.isArray(v) || v.length === 0) throw new ValidationError(`${arg} must list at least one scope, like ["tools"] or ["projects:foo"]`);
  if (v.length > MAX_SCOPES) throw new ValidationError(`${arg} has ${v.length} entries: at most ${MAX_SCOPES} scopes per memory`);
  const out2 = [];
  v.forEach((s2, i) => {
    const scope = validateScope(s2, `${arg}[${i}]`);
    if (!scopeAllowed(scope, c.config.scopes.allowed)) {
      throw new ValidationError(`scope "${scope}" is not allowed by scopes.allowed in config.toml: use one of ${c.config.scopes.allowed.join(", ")}`);
    }
    if (!out2.includes(scope)) out2.push(scope);
  });
  return out2;
}
function checkAliases(v, arg = "aliases") {
  if (v === void 0 || v === null) return [];
  if (!Array.isArray(v)) throw new ValidationError(`${arg} must be an array of short texts, like ["login", "sign-in"]`);
  if (v.length > LIMITS.aliases) throw new ValidationError(`${arg} has ${v.length} entries: at most ${LIMITS.aliases} aliases per memory`);
  const out2 = [];
  v.forEach((a, i) => {
    if (typeof a !== "string") throw new ValidationError(`${arg}[${i}] must be a string, got ${JSON.stringify(a)}`);
    const t = a.replace(/\s+/g, " ").trim();
    if (t === "") throw new ValidationError(`${arg}[${i}] is empty: give a word or short phrase`);
    if (t.length > LIMITS.aliasChars) throw new ValidationError(`${arg}[${i}] is ${t.length} characters: at most ${LIMITS.aliasChars} per alias`);
    if (t.includes("\0") || LONE_SURROGATE2.test(t)) throw new ValidationError(`${arg}[${i}] is not plain text`);
    if (!out2.includes(t)) out2.push(t);
  });
  return out2;
}
function checkEnum(v, arg, allowed, dflt) {
  if (v === void 0 || v === null) return dflt;
  if (typeof v === "string" && allowed.includes(v)) return v;
  throw new ValidationError(`${arg} must be one of ${allowed.join(", ")}, got ${JSON.stringify(v)}`);
}
function checkExpires(c, v) {
  if (v === void 0 || v === null) return null;
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(v.trim())) {
    throw new ValidationError(`expires must be an ISO 8601 date or date-time like 2027-01-31 or 2027-01-31T12:00:00Z, got ${JSON.stringify(v)}`);
  }
  const t = Date.parse(v.trim());
  if (Number.isNaN(t)) throw new ValidationError(`expires ${JSON.stringify(v)} is not a real date`);
  if (t <= c.now().getTime()) throw new ValidationError(`expires ${JSON.stringify(v)} is in the past: give a future date, or omit it`);
  return new Date(t).toISOString();
}
function checkBool(v, arg) {
  if (v === void 0 || v === null) return false;
  if (typeof v !== "boolean") throw new ValidationError(`${arg} must be true or false`);
  return v;
}
function validateWrite(c, input) {
  const problems = [];
  const attempt = (fn) => {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      problems.push(err.message);
      return void 0;
    }
  };
  const w2 = {
    content: attempt(() => checkContent(c, input.content)),
    scopes: attempt(() => checkScopes(c, input.scopes)),
    confidence: attempt(() => checkEnum(input.confidence, "confidence", CONFIDENCES, "medium")),
    source: attempt(() => checkEnum(input.source, "source", SOURCES, "explicit-statement")),
    category: attempt(() => checkEnum(input.category, "category", CATEGORIES, "fact")),
    expires: attempt(() => checkExpires(c, input.expires))
  };
  const aliases = attempt(() => checkAliases(input.aliases));
  if (aliases && aliases.length > 0) w2.aliases = aliases;
  attempt(() => checkBool(input.force, "force"));
  attempt(() => checkBool(input.acknowledge_transient, "acknowledge_transient"));
  if (problems.length) throw new ValidationError(problems.join("; "));
  return w2;
}
function committedShape(m, related2) {
  return {
    status: "committed",
    id: m.id,
    scopes: m.scopes,
    confidence: m.confidence,
    source: m.source,
    category: m.category,
    created: m.created,
    updated: m.updated,
    last_verified_at: m.last_verified_at,
    expires: m.expires,
    ...m.aliases && m.aliases.length ? { aliases: m.aliases } : {},
    file: m.file,
    ...related2 && related2.length ? { related: related2 } : {}
  };
}
async function newRecord(c, w2) {
  const now = c.now().toISOString();
  const rec = {
    id: newId(c.now().getTime()),
    created: now,
    updated: now,
    scopes: w2.scopes,
    confidence: w2.confidence,
    source: w2.source,
    category: w2.category,
    last_verified_at: null,
    expires: w2.expires,
    origin: await captureOrigin(c.caller.cwd),
    body: w2.content
  };
  if (c.storeKind === "team") rec.origin = { ...rec.origin, cwd: null, worktree_root: null };
  if (w2.aliases && w2.aliases.length > 0) rec.aliases = w2.aliases;
  return rec;
}
async function commitWrite(c, w2, related2) {
  const rec = await newRecord(c, w2);
  const m = await c.store.create(rec);
  return committedShape(m, related2);
}
async function gateSources(also) {
  const out2 = [];
  for (const o of also) {
    await o.store.ensureFresh({ read: true });
    const sem = await semanticGateOptions(o);
    out2.push({ label: o.storeKind, store: o.store, candidates: (text2, limit) => candidateRecordsFor(o, text2, limit), ...sem.neighbours ? { neighbours: sem.neighbours } : {}, ...sem.removedNeighbours ? { removedNeighbours: sem.removedNeighbours } : {} });
  }
  return out2;
}
async function write(c, input, also = []) {
  const w2 = validateWrite(c, input);
  const force = checkBool(input.force, "force");
  const ack = checkBool(input.acknowledge_transient, "acknowledge_transient");
  if (c.storeKind === "team" && w2.category === "user-inference") {
    throw new ValidationError('category user-inference cannot go to the team store: a claim about the user is personal and waits for their confirmation; write it without store: "team" (it goes to the personal store, pending); nothing was written');
  }
  await c.store.ensureFresh({ create: true });
  const others = await gateSources(also);
  const gate = await runWriteGates(c, w2, {
    force,
    acknowledge_transient: ack,
    candidates: (text2, limit) => candidateRecordsFor(c, text2, limit),
    ...await semanticGateOptions(c),
    ...others.length > 0 ? { also: others, label: c.storeKind } : {},
    ...c.storeKind === "team" ? { strict: true } : {}
  });
  const store = c.storeKind === "team" ? { store: "team" } : {};
  if (gate.outcome) {
    c.log("write", { status: gate.outcome.status, scopes: w2.scopes, category: w2.category, ...gate.logFields, ...store });
    return { ...gate.outcome, ...others.length > 0 ? { store: c.storeKind } : {} };
  }
  const out2 = await commitWrite(c, w2, gate.related);
  c.log("write", { status: "committed", id: out2.id, scopes: w2.scopes, category: w2.category, ...gate.logFields, ...store });
  return { ...out2, store: c.storeKind };
}
async function update(c, input) {
  await c.store.ensureFresh();
  await settleUnknownIds(c, [input.id]);
  const target = requireActive(c, input.id);
  const has2 = (k) => input[k] !== void 0;
  if (!has2("content") && !has2("scopes") && !has2("confidence") && !has2("expires") && !has2("aliases")) {
    throw new ValidationError("give at least one of content, scopes, confidence, expires or aliases to change");
  }
  const content = has2("content") ? checkContent(c, input.content) : void 0;
  const scopes = has2("scopes") ? checkScopes(c, input.scopes) : void 0;
  const confidence = has2("confidence") ? checkEnum(input.confidence, "confidence", CONFIDENCES, "medium") : void 0;
  const expires = has2("expires") ? checkExpires(c, input.expires) : void 0;
  const aliases = has2("aliases") ? checkAliases(input.aliases) : void 0;
  const ack = checkBool(input.acknowledge_transient, "acknowledge_transient");
  const strict = c.storeKind === "team";
  if (content !== void 0) await checkUpdateContent(c, content, strict);
  if (aliases !== void 0 && aliases.length > 0) await checkUpdateContent(c, aliases.join("\n"), strict);
  const fieldsGiven = ["content", "scopes", "confidence", "expires", "aliases"].filter(has2);
  const durability = (cur) => {
    const { markers, where } = updateMarkers(cur, { body: content ?? cur.body, aliases: aliases ?? cur.aliases ?? [] });
    if (markers.length === 0) return null;
    if (!ack) {
      c.log("update_refused", { id: target.id, fields: fieldsGiven, status: "transient_warning", markers: markers.map((m2) => m2.marker), acknowledge_transient: false });
      throw transientUpdateError(markers, where);
    }
    return { markers: markers.map((m2) => m2.marker), acknowledge_transient: true };
  };
  let transient = durability(target);
  let changedContent = false;
  const m = await c.store.modify(target.id, (cur) => {
    if (cur.tombstoned) throw requireActiveError(c, cur.id);
    if (cur !== target) transient = durability(cur);
    changedContent = content !== void 0 && content !== cur.body;
    const rec = {
      ...stripStored(cur),
      body: content ?? cur.body,
      scopes: scopes ?? cur.scopes,
      confidence: confidence ?? cur.confidence,
      expires: expires === void 0 ? cur.expires : expires,
      updated: c.now().toISOString(),
      last_verified_at: changedContent ? null : cur.last_verified_at
    };
    if (changedContent) delete rec.verified_head;
    if (aliases !== void 0) {
      if (aliases.length > 0) rec.aliases = aliases;
      else delete rec.aliases;
    }
    return rec;
  });
  c.log("update", { id: m.id, fields: fieldsGiven, content_changed: changedContent, ...transient ?? {} });
  return { ...committedShape(m), store: c.storeKind };
}
async function verify(c, input) {
  await c.store.ensureFresh();
  await settleUnknownIds(c, [input.id]);
  const target = requireActive(c, input.id);
  const note = checkNote(input.note, "note", false);
  const m = await c.store.modify(target.id, async (cur) => {
    if (cur.tombstoned) throw requireActiveError(c, cur.id);
    const rec = { ...stripStored(cur), last_verified_at: c.now().toISOString() };
    const { repoRoot, repoKey } = c.caller;
    const head = repoRoot && repoKey && originRepoKey(cur.origin) === repoKey ? await headSha(repoRoot) : null;
    if (head) rec.verified_head = head;
    else delete rec.verified_head;
    return rec;
  });
  c.log("verify", { id: m.id, ...note ? { note } : {} });
  return { verified: m.id, last_verified_at: m.last_verified_at, updated: m.updated, store: c.storeKind };
}
function requireActiveError(c, id) {
  try {
    requireActive(c, id);
  } catch (err) {
    return err;
  }
  return new ValidationError(`memory ${id} is not active`);
}
async function writeConfirm(c, input) {
  const id = checkPendingId(input.pending_id);
  const now = c.now();
  const claim = await claimPending(c.dir, id, now);
  try {
    const w2 = validateWrite(c, claim.entry.write);
    await c.store.ensureFresh({ create: true });
    const out2 = await commitWrite(c, w2);
    await claim.done();
    c.log("write_confirm", {
      pending_id: id,
      id: out2.id,
      status: "committed",
      pending_reason: claim.entry.reason,
      scopes: w2.scopes,
      category: w2.category,
      // The durability markers acknowledged when the write was made pending (counted then).
      ...claim.entry.markers?.length ? { markers: claim.entry.markers, acknowledge_transient: true } : {}
    });
    return out2;
  } catch (err) {
    await claim.release().catch(() => {
    });
    throw err;
  }
}
async function writeCancel(c, input) {
  const id = checkPendingId(input.pending_id);
  const now = c.now();
  const existed = await dropPending(c.dir, id, now);
  await sweepPending(c.dir, now);
  c.log("write_cancel", { pending_id: id, existed });
  return { cancelled: true, existed };
}

// server/src/core/ops/lifecycle.ts
async function remove2(c, input) {
  await c.store.ensureFresh();
  await settleUnknownIds(c, [input.id]);
  const target = requireActive(c, input.id);
  const reason = checkNote(input.reason, "reason", true);
  if (target.note !== void 0) return removeNote(c, target, reason);
  const m = await c.store.modify(target.id, (cur) => {
    if (cur.tombstoned) requireActive(c, cur.id);
    return { ...stripStored(cur), removed: c.now().toISOString(), removed_reason: reason, removed_session: c.session };
  });
  c.log("remove", { id: m.id, reason });
  return { removed: m.id, tombstone: m.file, store: c.storeKind };
}
async function restore(c, input) {
  await c.store.ensureFresh();
  const id = checkId(input.id);
  await settleUnknownIds(c, [id]);
  if (c.store.get(id)) throw new ValidationError(`memory ${id} is not removed: only tombstoned memories can be restored`);
  const tomb = c.store.getTombstone(id);
  if (!tomb) throw new NotFoundError(`no removed memory with id ${id}`);
  const note = await restoreNote(c, tomb);
  if (note !== null) return committedShape(note);
  const m = await c.store.modify(id, (cur) => {
    if (!cur.tombstoned) throw new ValidationError(`memory ${id} is not removed: only tombstoned memories can be restored`);
    const rec = stripStored(cur);
    delete rec.removed;
    delete rec.removed_reason;
    delete rec.removed_session;
    return rec;
  });
  c.log("restore", { id: m.id });
  return { ...committedShape(m), store: c.storeKind };
}
var removalKey = (m) => {
  const t = m.removed === void 0 ? NaN : Date.parse(m.removed);
  return { t: Number.isNaN(t) ? 0 : t, id: m.id };
};
var removedBefore = (a, b) => a.t > b.t || a.t === b.t && a.id > b.id;
function encodeRemovalCursor(k) {
  return Buffer.from(`t1:${k.t}:${k.id}`).toString("base64url");
}
function decodeRemovalCursor(cursor) {
  if (typeof cursor !== "string" || cursor === "") throw new ValidationError("cursor must be the next_cursor string from a previous page");
  const m = /^t1:(\d{1,16}):([0-9A-HJKMNP-TV-Z]{26})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m) throw new ValidationError(`cursor ${JSON.stringify(cursor.slice(0, 40))} was not issued by memory_list_tombstones: pass next_cursor from a previous page, or omit it to start over`);
  return { t: Number(m[1]), id: m[2] };
}
async function listTombstones(c, input) {
  await c.store.ensureFresh();
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, "limit", LIMITS.pageSize, LIMITS.defaultPageSize);
  const after = input.cursor === void 0 || input.cursor === null ? null : decodeRemovalCursor(input.cursor);
  const match = scopeFilterMatcher(filters);
  const buf = [];
  if (c.team !== null) await c.team.store.ensureFresh();
  for (const m of tombstonesEverywhere(c)) {
    const k = removalKey(m);
    if (after !== null && !removedBefore(after, k)) continue;
    if (buf.length > limit && !removedBefore(k, buf[limit].k)) continue;
    if (!match(m.scopes)) continue;
    let i = buf.length;
    while (i > 0 && removedBefore(k, buf[i - 1].k)) i--;
    buf.splice(i, 0, { m, k });
    if (buf.length > limit + 1) buf.pop();
  }
  const page = buf.slice(0, limit);
  const next_cursor = buf.length > limit ? encodeRemovalCursor(page[page.length - 1].k) : null;
  const items = page.map(({ m }) => ({
    ...recordHead(m),
    store: ownerOf(c, m).storeKind,
    removed: m.removed,
    removed_reason: m.removed_reason ?? "",
    summary: summarize(m.body),
    file: m.file
  }));
  const keys = new Map(page.map(({ m, k }) => [m.id, k]));
  const capped = capPage({ items, next_cursor }, (last) => encodeRemovalCursor(keys.get(last.id)));
  c.log("list_tombstones", { scopes: filters, returned: capped.items.map((x) => x.id) });
  return capped;
}
function* tombstonesEverywhere(c) {
  yield* c.store.tombstones();
  if (c.team !== null) yield* c.team.store.tombstones();
}
var DAY_MS4 = 864e5;
async function pruneTombstones(c, input) {
  const days = input.older_than_days;
  if (!Number.isInteger(days) || days < 0 || days > 36500) throw new ValidationError(`older_than_days must be a whole number from 0 to 36500, got ${JSON.stringify(days)}`);
  await c.store.ensureFresh();
  const cutoff = c.now().getTime() - days * DAY_MS4;
  const old = [...c.store.tombstones()].filter((t) => t.removed !== void 0 && Date.parse(t.removed) < cutoff).sort((a, b) => a.removed.localeCompare(b.removed) || a.id.localeCompare(b.id));
  const dryRun = input.dry_run === true;
  const pruned = dryRun ? [] : await c.store.purgeTombstones(old.map((t) => t.id));
  const candidates2 = old.map((t) => ({ id: t.id, removed: t.removed, removed_reason: t.removed_reason ?? "", summary: summarize(t.body) }));
  if (!dryRun) c.log("prune_tombstones", { older_than_days: days, pruned });
  return { dry_run: dryRun, older_than_days: days, candidates: candidates2, pruned };
}

// server/src/core/curation/consolidate.ts
var CONSOLIDATE_DUPLICATE = 0.6;
var CONSOLIDATE_SUBJECT = 0.6;
var SUPERSEDE_CONTAINMENT = 0.8;
var SUPERSEDE_GROWTH = 1.2;
var SUPERSEDE_MIN_NEW = 3;
var NUMBER_WORDS = {
  zero: "0",
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
  ten: "10",
  eleven: "11",
  twelve: "12",
  fifteen: "15",
  twenty: "20",
  thirty: "30",
  forty: "40",
  fifty: "50",
  sixty: "60",
  ninety: "90",
  hundred: "100",
  thousand: "1000",
  once: "1",
  twice: "2",
  single: "1",
  double: "2",
  half: "0.5"
};
function valueOf(tok) {
  if (NUMBER_WORDS[tok] !== void 0) return NUMBER_WORDS[tok];
  const m = /^(\d+(?:\.\d+)?)([a-z]*)$/.exec(tok);
  return m ? m[1] + (m[2] ? `:${m[2]}` : "") : null;
}
function parse3(body) {
  const toks = dedupTokenSet(body);
  const words = /* @__PURE__ */ new Set();
  const values = /* @__PURE__ */ new Set();
  for (const t of toks) {
    const v = valueOf(t);
    if (v === null) words.add(t);
    else values.add(v);
  }
  return { all: toks, words, values };
}
var containment = (a, b) => {
  if (a.size === 0) return 0;
  let n = 0;
  for (const t of a) if (b.has(t)) n++;
  return n / a.size;
};
var sameSet = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
var pct = (x) => `${Math.round(x * 100)}%`;
function judgePair(older, newer, po = parse3(older.body), pn = parse3(newer.body)) {
  const subject = jaccard(po.words, pn.words);
  if (subject >= CONSOLIDATE_SUBJECT && po.values.size > 0 && pn.values.size > 0 && !sameSet(po.values, pn.values)) {
    const differ = [...po.values].filter((v) => !pn.values.has(v)).concat([...pn.values].filter((v) => !po.values.has(v)));
    return {
      kind: "contradiction",
      ids: [older.id, newer.id],
      reason: `same subject (${pct(subject)} of the other words shared) with different values (${differ.map((v) => v.replace(":", "")).join(" vs ")})`,
      suggested_action: "ask the user which value holds; memory_update the right one and memory_remove the other (or memory_merge them)"
    };
  }
  const c = containment(po.all, pn.all);
  if (c >= SUPERSEDE_CONTAINMENT && pn.all.size >= po.all.size * SUPERSEDE_GROWTH && pn.all.size - po.all.size >= SUPERSEDE_MIN_NEW) {
    return {
      kind: "superseded",
      ids: [older.id, newer.id],
      reason: `the newer memory restates ${pct(c)} of the older one and adds ${pn.all.size - po.all.size} more words`,
      suggested_action: `memory_remove ${older.id} (reason: superseded by ${newer.id}), or memory_merge both`
    };
  }
  const sim = jaccard(po.all, pn.all);
  if (sim >= CONSOLIDATE_DUPLICATE) {
    return { kind: "duplicates", ids: [older.id, newer.id], reason: `${pct(sim)} of their words shared`, suggested_action: "memory_merge them into one memory" };
  }
  return null;
}
function consolidate(mems, candidates2) {
  const byId2 = new Map(mems.map((m) => [m.id, m]));
  const parsed = /* @__PURE__ */ new Map();
  const get2 = (m) => {
    let p = parsed.get(m.id);
    if (!p) parsed.set(m.id, p = parse3(m.body));
    return p;
  };
  const seen = /* @__PURE__ */ new Set();
  const out2 = [];
  const parent = /* @__PURE__ */ new Map();
  const find = (x) => {
    let r = x;
    while (parent.get(r) !== void 0 && parent.get(r) !== r) r = parent.get(r);
    return r;
  };
  const dupReasons = /* @__PURE__ */ new Map();
  for (const m of mems) {
    for (const cid of candidates2(m)) {
      if (cid === m.id) continue;
      const o = byId2.get(cid);
      if (!o) continue;
      const [older, newer] = m.id < o.id ? [m, o] : [o, m];
      const key = `${older.id}:${newer.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const g = judgePair(older, newer, get2(older), get2(newer));
      if (!g) continue;
      if (g.kind !== "duplicates") out2.push(g);
      else {
        const a = find(older.id);
        const b = find(newer.id);
        if (!parent.has(a)) parent.set(a, a);
        if (!parent.has(b)) parent.set(b, b);
        if (a !== b) parent.set(a < b ? b : a, a < b ? a : b);
        dupReasons.set(older.id, g.reason);
      }
    }
  }
  const clusters = /* @__PURE__ */ new Map();
  for (const id of parent.keys()) {
    const r = find(id);
    (clusters.get(r) ?? clusters.set(r, []).get(r)).push(id);
  }
  const dups = [...clusters.values()].map((ids2) => {
    ids2.sort();
    return {
      kind: "duplicates",
      ids: ids2,
      reason: ids2.length === 2 ? `near-duplicates: ${dupReasons.get(ids2[0]) ?? "most words shared"}` : `${ids2.length} near-duplicates (each shares at least ${pct(CONSOLIDATE_DUPLICATE)} of its words with another)`,
      suggested_action: "memory_merge them into one memory"
    };
  });
  const order = { contradiction: 0, superseded: 1, duplicates: 2 };
  return [...out2, ...dups].sort((a, b) => order[a.kind] - order[b.kind] || (a.ids[0] < b.ids[0] ? -1 : a.ids[0] > b.ids[0] ? 1 : 0) || (a.ids[1] < b.ids[1] ? -1 : 1));
}

// server/src/core/ops/consolidation.ts
var CONSOLIDATE_SCAN_MAX = 5e3;
var CONSOLIDATE_CANDIDATES = 12;
async function consolidate2(c, input, opts = { log: true }) {
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, "limit", LIMITS.consolidateGroups, LIMITS.defaultConsolidateGroups);
  let start = 0;
  if (input.cursor !== void 0 && input.cursor !== null) {
    const m = typeof input.cursor === "string" ? /^c1:(\d{1,6})$/.exec(Buffer.from(input.cursor, "base64url").toString("utf8")) : null;
    if (!m) throw new ValidationError("cursor must be the next_cursor string from a previous memory_consolidate page");
    start = Number(m[1]);
  }
  await c.store.ensureFresh({ read: true });
  const match = scopeFilterMatcher(filters);
  const now = c.now();
  const visible = [...c.store.active()].filter((m) => !m.note && isVisible(c.disabledScopes, m, now) && match(m.scopes));
  visible.sort((a, b) => a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
  const mems = visible.slice(0, CONSOLIDATE_SCAN_MAX);
  const inSet = new Set(mems.map((m) => m.id));
  const groups = consolidate(mems, (m) => candidatesFor(c, m.body, CONSOLIDATE_CANDIDATES).filter((id) => inSet.has(id)));
  const page = groups.slice(start, start + limit);
  const next2 = start + limit < groups.length ? Buffer.from(`c1:${start + limit}`).toString("base64url") : null;
  const out2 = { total_groups: groups.length, scanned: mems.length, groups: page, next_cursor: next2 };
  if (opts.log) c.log("consolidate", { scopes: filters, groups: groups.length, returned: page.length });
  return out2;
}
async function consolidationSummary(c) {
  const all = await consolidate2(c, { limit: LIMITS.consolidateGroups }, { log: false });
  let groups = all.groups;
  let cursor = all.next_cursor;
  while (cursor !== null) {
    const more = await consolidate2(c, { limit: LIMITS.consolidateGroups, cursor }, { log: false });
    groups = groups.concat(more.groups);
    cursor = more.next_cursor;
  }
  const count = (k) => groups.filter((g) => g.kind === k).length;
  return {
    groups: all.total_groups,
    contradictions: count("contradiction"),
    superseded: count("superseded"),
    duplicates: count("duplicates"),
    next_step: all.total_groups > 0 ? "run /memory-consolidate (or call memory_consolidate) to review and merge them" : "nothing to consolidate"
  };
}
var CONFIDENCE_RANK = { low: 0, medium: 1, high: 2 };
async function merge(c, input) {
  const rawIds = input.ids;
  if (!Array.isArray(rawIds)) throw new ValidationError(`ids must be an array of 2 to ${LIMITS.mergeIds} memory ids to merge`);
  if (rawIds.length < 2) throw new ValidationError(`ids has ${rawIds.length} ${rawIds.length === 1 ? "entry" : "entries"}: a merge needs at least 2 memory ids`);
  if (rawIds.length > LIMITS.mergeIds) throw new ValidationError(`ids has ${rawIds.length} entries: at most ${LIMITS.mergeIds} memories per merge`);
  const ids2 = rawIds.map((r, i) => checkId(r, `ids[${i}]`));
  const dup = ids2.find((id, i) => ids2.indexOf(id) !== i);
  if (dup) throw new ValidationError(`ids lists ${dup} twice: name each memory to merge once`);
  const content = checkContent(c, input.content);
  const reason = checkNote(input.reason, "reason", true);
  const extraAliases = checkAliases(input.aliases);
  const ack = checkBool(input.acknowledge_transient, "acknowledge_transient");
  const given = input.scopes === void 0 || input.scopes === null ? null : checkScopes(c, input.scopes);
  await c.store.ensureFresh();
  await settleUnknownIds(c, ids2);
  const sources = ids2.map((id, i) => {
    const m2 = requireActive(c, id, `ids[${i}]`);
    if (m2.note !== void 0) throw new ValidationError(`ids[${i}] ${id} is the note ${m2.note}: notes are not memories and cannot be merged (use the memory tool)`);
    return m2;
  });
  let scopes = given;
  if (scopes === null) {
    const union = [];
    for (const m2 of sources) for (const s2 of m2.scopes) if (!union.includes(s2)) union.push(s2);
    if (union.length > MAX_SCOPES) throw new ValidationError(`the memories to merge have ${union.length} scopes between them, over the ${MAX_SCOPES} a memory may have: pass scopes`);
    scopes = union;
  }
  const aliases = [...extraAliases];
  for (const m2 of sources) for (const a of m2.aliases ?? []) if (!aliases.includes(a)) aliases.push(a);
  const w2 = {
    content,
    scopes,
    // The strongest the sources held; a claim about the user stays one only if every source was.
    confidence: sources.reduce((best, m2) => CONFIDENCE_RANK[m2.confidence] > CONFIDENCE_RANK[best] ? m2.confidence : best, "low"),
    source: sources.every((m2) => m2.source === sources[0].source) ? sources[0].source : "explicit-statement",
    category: sources.every((m2) => m2.category === "user-inference") ? "user-inference" : "fact",
    expires: null
  };
  if (aliases.length > 0) w2.aliases = aliases.slice(0, LIMITS.aliases);
  const exclude = new Set(ids2);
  const gate = await runWriteGates(c, w2, { force: false, acknowledge_transient: ack, candidates: (text2, limit) => candidateRecordsFor(c, text2, limit), exclude, confirmed: true });
  if (gate.outcome) return gate.outcome;
  const rec = { ...await newRecord(c, w2), merged_from: ids2 };
  const removed = c.now().toISOString();
  const m = await c.store.merge(
    rec,
    ids2,
    (cur) => {
      if (cur.tombstoned || cur.note !== void 0) requireActive(c, cur.id);
    },
    (cur) => ({ ...stripStored(cur), removed, removed_reason: `merged into ${rec.id}`, removed_session: c.session })
  );
  c.log("merge", { id: m.id, merged_from: ids2, reason, scopes: m.scopes, ...gate.logFields });
  return { ...committedShape(m, gate.related), merged_from: ids2, tombstoned: ids2 };
}

// server/src/core/io/exportImport.ts
var EXPORT_FORMAT = "cairn-export";
var EXPORT_VERSION = 1;
function toRecord(m) {
  const rec = stripStored(m);
  if (m.extra.length > 0) rec.extra = [...m.extra];
  return rec;
}
var byId = (a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
function buildExport(active, tombstones, opts) {
  const filters = opts.scopes ?? [];
  const match = scopeFilterMatcher(filters);
  const pick3 = (it) => [...it].filter((m) => match(m.scopes)).map(toRecord).sort(byId);
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: opts.now.toISOString(),
    scope_filters: filters,
    memories: pick3(active),
    tombstones: opts.includeTombstones === false ? [] : pick3(tombstones)
  };
}
function plainRecord(r) {
  const { extra, ...rec } = r;
  void extra;
  const out2 = { ...rec, last_verified_at: rec.last_verified_at ?? null, expires: rec.expires ?? null };
  if (!out2.verified_head) delete out2.verified_head;
  if (out2.removed === void 0) {
    delete out2.removed;
    delete out2.removed_reason;
    delete out2.removed_session;
  }
  return out2;
}
async function importExport(store, doc, progress) {
  await store.ensureFresh();
  const all = [...doc.memories, ...doc.tombstones];
  const report = { added: 0, updated: 0, unchanged: 0, kept_newer: 0, total: all.length };
  let done = 0;
  for (const r of all) {
    const incoming = plainRecord(r);
    const cur = store.get(r.id) ?? store.getTombstone(r.id);
    if (!cur) {
      await store.create(incoming, r.extra ?? []);
      report.added++;
    } else if (Date.parse(incoming.updated) > Date.parse(cur.updated)) {
      await store.modify(r.id, () => incoming);
      report.updated++;
    } else if (Date.parse(incoming.updated) === Date.parse(cur.updated)) report.unchanged++;
    else report.kept_newer++;
    progress?.(++done, all.length);
  }
  return report;
}

// server/src/core/io/import/common.ts
import { createHash as createHash5 } from "node:crypto";
import { lstatSync as lstatSync10, readdirSync as readdirSync8, readFileSync as readFileSync12 } from "node:fs";
import { basename as basename7, join as join26, relative } from "node:path";

// server/src/core/io/yaml.ts
var import_gray_matter2 = __toESM(require_gray_matter(), 1);
var engine = import_gray_matter2.default.engines.yaml;
function yamlLoad(text2) {
  return engine.parse(text2);
}

// server/src/core/io/import/common.ts
var NULL_ORIGIN = { cwd: null, repo: null, branch: null, worktree_root: null };
var SourceError = class extends CairnError {
  name = "SourceError";
};
function sourceError(file, line, msg) {
  return new SourceError(`${file}${line !== null ? `:${line}` : ""}: ${msg}`);
}
function hashOf(text2) {
  return createHash5("sha256").update(text2.replace(/\s+/g, " ").trim()).digest("hex").slice(0, 16);
}
function slugScope(text2, fallback) {
  const parts = text2.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().split(/[/:\\]+/).map((p) => p.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")).filter((p) => p !== "");
  let s2 = parts.join(":");
  if (s2.length > LIMITS.scopeChars) s2 = s2.slice(0, LIMITS.scopeChars).replace(/[-:]+$/, "");
  return SCOPE_RE.test(s2) ? s2 : fallback;
}
function isoDate(v, bad) {
  if (v === void 0 || v === null || v === "") return void 0;
  let t = NaN;
  if (v instanceof Date) t = v.getTime();
  else if (typeof v === "string") t = Date.parse(v);
  else if (typeof v === "number") t = v < 1e11 ? v * 1e3 : v;
  if (!Number.isFinite(t)) throw bad(`${JSON.stringify(v instanceof Date ? String(v) : v)} is not a date`);
  return new Date(t).toISOString();
}
function mtimeIso(st) {
  return new Date(st.mtimeMs).toISOString();
}
function readSource(file) {
  let st;
  try {
    st = lstatSync10(file);
  } catch (err) {
    throw new SourceError(`cannot read ${file}: ${err.code === "ENOENT" ? "no such file or directory" : err.message}`);
  }
  if (!st.isFile()) throw new SourceError(`${file} is not a file`);
  if (st.size > LIMITS.importFileBytes) throw new SourceError(`${file} is ${st.size} bytes, over the import limit of ${LIMITS.importFileBytes}`);
  const raw = readFileSync12(file);
  if (raw.includes(0)) throw sourceError(file, null, "is a binary file (it contains a NUL byte), not text");
  const text2 = raw.toString("utf8");
  return { text: text2.charCodeAt(0) === 65279 ? text2.slice(1) : text2, stat: st };
}
function statPath(path) {
  try {
    return lstatSync10(path);
  } catch (err) {
    throw new SourceError(`cannot read ${path}: ${err.code === "ENOENT" ? "no such file or directory" : err.message}`);
  }
}
function walkFiles(dir, want, skipDirs = /* @__PURE__ */ new Set()) {
  const out2 = [];
  const visit = (d) => {
    for (const e of readdirSync8(d, { withFileTypes: true }).sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (e.name.startsWith(".") || e.isSymbolicLink()) continue;
      const p = join26(d, e.name);
      if (e.isDirectory()) {
        if (!skipDirs.has(relative(dir, p))) visit(p);
      } else if (e.isFile() && want(e.name)) out2.push(p);
    }
  };
  visit(dir);
  return out2;
}
function parseJson(text2, file) {
  try {
    return JSON.parse(text2);
  } catch (err) {
    const msg = err.message;
    const pos = /position (\d+)/.exec(msg);
    const lineM = /line (\d+)/.exec(msg);
    const line = pos ? text2.slice(0, Number(pos[1])).split("\n").length : lineM ? Number(lineM[1]) : null;
    throw sourceError(file, line, `not valid JSON (${msg.replace(/ in JSON at position \d+.*$/s, "").replace(/^JSON\.parse: /, "")})`);
  }
}
function jsonLines(text2, file) {
  const out2 = [];
  text2.split("\n").forEach((raw, i) => {
    const s2 = raw.trim();
    if (s2 === "") return;
    try {
      out2.push({ line: i + 1, value: JSON.parse(s2) });
    } catch (err) {
      throw sourceError(file, i + 1, `not a JSON object on one line (${err.message.replace(/ in JSON at position \d+.*$/s, "")})`);
    }
  });
  return out2;
}
var isObj = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
function frontmatter2(text2, file) {
  const lines = text2.split("\n");
  if (lines[0]?.replace(/\r$/, "") !== "---") return { data: {}, body: text2, bodyLine: 1 };
  const end = lines.findIndex((l, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
  if (end === -1) throw sourceError(file, 1, 'frontmatter opened with "---" is never closed');
  let data;
  try {
    data = yamlLoad(lines.slice(1, end).join("\n"));
  } catch (err) {
    const mark = err.mark;
    throw sourceError(file, typeof mark?.line === "number" ? mark.line + 2 : 1, `frontmatter is not valid YAML: ${(err.reason ?? err.message).split("\n")[0]}`);
  }
  if (data === null || data === void 0) data = {};
  if (!isObj(data)) throw sourceError(file, 2, "frontmatter is not a mapping of keys to values");
  return { data, body: lines.slice(end + 1).join("\n"), bodyLine: end + 2 };
}
var LIST_START = /^(?:[-*+]|\d+[.)])\s+/;
function markdownItems(body, firstLine = 1) {
  const items = [];
  let heading = null;
  let cur = null;
  let inFence = false;
  const flush = () => {
    if (cur) {
      const text2 = cur.lines.join("\n").replace(/\s+$/, "");
      if (text2.trim() !== "") items.push({ text: text2, line: cur.line, heading, listItem: cur.listItem });
    }
    cur = null;
  };
  body.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    const n = firstLine + i;
    if (inFence) {
      cur.lines.push(line);
      if (/^\s*(```|~~~)/.test(line)) inFence = false;
      return;
    }
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = true;
      if (!cur) cur = { lines: [], line: n, listItem: false };
      cur.lines.push(line);
      return;
    }
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      flush();
      heading = h[1].trim() || null;
      return;
    }
    if (line.trim() === "") {
      flush();
      return;
    }
    if (/^(?:-{3,}|\*{3,}|_{3,})\s*$/.test(line)) {
      flush();
      return;
    }
    const li = LIST_START.exec(line);
    if (li) {
      flush();
      cur = { lines: [line.slice(li[0].length)], line: n, listItem: true };
      return;
    }
    if (cur && cur.listItem && /^\s+\S/.test(line)) {
      cur.lines.push(line.replace(/^ {2,4}/, ""));
      return;
    }
    if (!cur) cur = { lines: [], line: n, listItem: false };
    else if (cur.listItem) {
      cur.lines.push(line.trim());
      return;
    }
    cur.lines.push(line);
  });
  if (inFence && cur) cur.lines.push("```");
  flush();
  return items;
}
function stem2(file) {
  return basename7(file).replace(/\.[^.]+$/, "");
}
function aliasList2(words) {
  const out2 = [];
  for (const w2 of words) {
    const t = (w2 ?? "").replace(/\s+/g, " ").trim();
    if (t === "" || t.length > LIMITS.aliasChars || out2.includes(t)) continue;
    out2.push(t);
    if (out2.length === LIMITS.aliases) break;
  }
  return out2.length ? out2 : void 0;
}

// server/src/core/ops/transfer.ts
async function exportStore(c, input) {
  await c.store.ensureFresh();
  return buildExport(c.store.active(), c.store.tombstones(), { now: c.now(), scopes: input.scopes, includeTombstones: input.include_tombstones });
}
async function importStore(c, doc, progress) {
  const report = await importExport(c.store, doc, progress);
  c.log("import", { added: report.added, updated: report.updated, unchanged: report.unchanged, kept_newer: report.kept_newer });
  return report;
}
var IMPORT_STATUSES = ["added", "added_tombstone", "already_imported", "changed_at_source", "removed_here", "duplicate", "previously_removed", "secret", "expired", "invalid"];
var IMPORTED_FROM = "imported_from";
function importedFromBlock(format, key, hash) {
  return `${IMPORTED_FROM}: {format: ${JSON.stringify(format)}, key: ${JSON.stringify(key)}, hash: ${JSON.stringify(hash)}}`;
}
function importedFrom(m) {
  const block2 = m.extra.find((b) => b.startsWith(`${IMPORTED_FROM}:`));
  if (!block2) return null;
  try {
    const v = yamlLoad(block2)[IMPORTED_FROM];
    if (typeof v?.format !== "string" || typeof v.key !== "string") return null;
    return { format: v.format, key: v.key, hash: typeof v.hash === "string" ? v.hash : null };
  } catch {
    return null;
  }
}
var BatchDedup = class {
  sets = [];
  byToken = /* @__PURE__ */ new Map();
  match(text2) {
    const tokens = dedupTokenSet(text2);
    const overlap = /* @__PURE__ */ new Map();
    for (const t of tokens) for (const i of this.byToken.get(t) ?? []) overlap.set(i, (overlap.get(i) ?? 0) + 1);
    for (const [i, inter] of overlap) {
      const other = this.sets[i].tokens;
      if (inter / (tokens.size + other.size - inter) >= DUPLICATE_THRESHOLD) return this.sets[i].label;
    }
    return null;
  }
  add(text2, label) {
    const tokens = dedupTokenSet(text2);
    const i = this.sets.push({ tokens, label }) - 1;
    for (const t of tokens) {
      if (!this.byToken.has(t)) this.byToken.set(t, []);
      this.byToken.get(t).push(i);
    }
  }
};
async function importFrom(c, parsed, opts) {
  const forced = opts.scopes.length ? checkScopes(c, opts.scopes, "scopes") : null;
  await c.store.ensureFresh();
  const known = /* @__PURE__ */ new Map();
  for (const it of [c.store.active(), c.store.tombstones()]) {
    for (const m of it) {
      const from = importedFrom(m);
      if (from && from.format === parsed.format) known.set(from.key, { m, hash: from.hash });
    }
  }
  const counts = Object.fromEntries([...IMPORT_STATUSES, "skipped"].map((s2) => [s2, 0]));
  counts.skipped = parsed.skipped.length;
  const items = [];
  const batch = new BatchDedup();
  const seenKeys = /* @__PURE__ */ new Map();
  const now = c.now();
  let done = 0;
  for (const cand of parsed.candidates) {
    const item = await importOne(c, parsed.format, cand, { ...opts, forced, known, batch, seenKeys, now });
    items.push(item);
    counts[item.status]++;
    opts.progress?.(++done, parsed.candidates.length);
  }
  c.log("import", { format: parsed.format, applied: opts.apply, ...Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0)) });
  return { format: parsed.format, path: parsed.path, applied: opts.apply, total: parsed.candidates.length, counts, items, skipped: parsed.skipped };
}
async function importOne(c, format, cand, o) {
  const base = { label: cand.label, key: cand.key };
  const hash = hashOf(cand.body);
  const prev = o.known.get(cand.key);
  if (prev) {
    if (prev.m.tombstoned && !cand.removed) return { ...base, status: "removed_here", id: prev.m.id, reason: prev.m.removed_reason ?? "" };
    return { ...base, status: prev.hash !== null && prev.hash !== hash ? "changed_at_source" : "already_imported", id: prev.m.id };
  }
  const twin = o.seenKeys.get(cand.key);
  if (twin) return { ...base, status: "duplicate", duplicate_of_item: twin };
  o.seenKeys.set(cand.key, cand.label);
  if (cand.expires && !cand.removed && Date.parse(cand.expires) <= o.now.getTime()) return { ...base, status: "expired", reason: `expired on ${cand.expires.slice(0, 10)}` };
  const scopes = [.../* @__PURE__ */ new Set([...o.forced ?? cand.scopes, ...cand.markScopes ?? []])];
  let w2;
  try {
    w2 = validateWrite(c, {
      content: cand.body,
      scopes,
      ...cand.category ? { category: cand.category } : {},
      ...cand.source ? { source: cand.source } : {},
      ...cand.confidence ? { confidence: cand.confidence } : {},
      ...cand.aliases?.length ? { aliases: cand.aliases } : {},
      ...cand.expires && !cand.removed ? { expires: cand.expires } : {}
    });
  } catch (err) {
    if (err instanceof ValidationError) return { ...base, status: "invalid", reason: err.message };
    throw err;
  }
  if (cand.removed) {
    const found = detectSecrets(w2.aliases?.length ? `${w2.content}
${w2.aliases.join("\n")}` : w2.content);
    if (found.length) return { ...base, status: "secret", kinds: [...new Set(found.map((f) => f.kind))] };
    const item2 = { ...base, status: "added_tombstone", scopes: w2.scopes };
    if (o.apply) item2.id = (await writeImported(c, format, cand, w2, hash, o.now)).id;
    return item2;
  }
  if (!o.force) {
    const twinText = o.batch.match(w2.content);
    if (twinText) return { ...base, status: "duplicate", duplicate_of_item: twinText };
  }
  const gate = await runWriteGates(c, w2, { force: o.force, acknowledge_transient: true, confirmed: true, candidates: (text2, limit) => candidateRecordsFor(c, text2, limit) });
  const out2 = gate.outcome;
  if (out2?.status === "secret_detected") return { ...base, status: "secret", kinds: [...new Set((out2.findings ?? []).map((f) => f.kind))] };
  if (out2?.status === "duplicate" || out2?.status === "previously_removed") {
    return {
      ...base,
      status: out2.status,
      matches: (out2.matches ?? []).map((m) => ({ id: String(m.id), similarity: Number(m.similarity), ...out2.status === "previously_removed" ? { removed_reason: m.removed_reason ?? null } : {} }))
    };
  }
  if (out2) return { ...base, status: "invalid", reason: `refused by the write gates (${out2.status})` };
  o.batch.add(w2.content, cand.label);
  const item = { ...base, status: "added", scopes: w2.scopes };
  if (o.apply) item.id = (await writeImported(c, format, cand, w2, hash, o.now)).id;
  return item;
}
async function writeImported(c, format, cand, w2, hash, now) {
  const created = cand.created ?? now.toISOString();
  const updated = cand.updated && Date.parse(cand.updated) >= Date.parse(created) ? cand.updated : created;
  const origin = cand.origin ?? NULL_ORIGIN;
  const rec = {
    id: newId(Math.max(0, Date.parse(created))),
    created,
    updated,
    scopes: w2.scopes,
    confidence: w2.confidence,
    source: w2.source,
    category: w2.category,
    last_verified_at: cand.last_verified_at ?? null,
    expires: cand.removed ? cand.expires ?? null : w2.expires,
    origin: { ...origin, repo: redactRemoteUrl(origin.repo) },
    body: w2.content
  };
  if (w2.aliases?.length) rec.aliases = w2.aliases;
  if (cand.removed) {
    rec.removed = cand.removed.at ?? now.toISOString();
    rec.removed_reason = cand.removed.reason;
    rec.removed_session = cand.removed.session ?? null;
  }
  return c.store.create(rec, [importedFromBlock(format, cand.key, hash)]);
}

// server/src/core/ops/insight.ts
import { statSync as statSync9 } from "node:fs";

// server/src/core/curation/timeline.ts
var str3 = (v) => typeof v === "string" ? v : null;
var has = (v, id) => Array.isArray(v) && v.includes(id);
function describe2(e, id) {
  switch (e.kind) {
    case "search": {
      const hit = retrievalsOf(e).find((r) => r.id === id);
      if (!hit) return null;
      const rows = Array.isArray(e.hits) ? e.hits : [];
      const rel = rows.find((r) => r && r.id === id)?.relevance;
      return `found by search ${JSON.stringify(str3(e.query) ?? "")}${typeof rel === "string" ? ` (${rel} relevance)` : ""}`;
    }
    case "show":
      return has(e.ids, id) ? "read in full (show)" : null;
    case "use": {
      const u2 = useOf(e);
      if (!u2 || !u2.ids.includes(id)) return null;
      return `${u2.outcome}${u2.note ? `: ${u2.note}` : ""}`;
    }
    case "write":
    case "write_confirm":
      return e.id === id ? e.kind === "write" ? "written" : `written after confirmation (${str3(e.pending_reason) ?? "pending"})` : null;
    case "update":
      return e.id === id ? `updated: ${Array.isArray(e.fields) ? e.fields.join(", ") : "fields"}${e.content_changed ? " (text changed)" : ""}` : null;
    case "verify":
      return e.id === id ? `verified${str3(e.note) ? `: ${str3(e.note)}` : ""}` : null;
    case "remove":
      return e.id === id ? `removed: ${str3(e.reason) ?? ""}` : null;
    case "restore":
      return e.id === id ? "restored" : null;
    case "merge":
      if (e.id === id) return `merged from ${Array.isArray(e.merged_from) ? e.merged_from.join(", ") : "other memories"}: ${str3(e.reason) ?? ""}`;
      return has(e.merged_from, id) ? `merged into ${str3(e.id)}: ${str3(e.reason) ?? ""}` : null;
    case "rename_scope":
      return has(e.active, id) || has(e.tombstoned, id) ? `scope ${str3(e.old_scope)} renamed to ${str3(e.new_scope)}` : null;
    default:
      return null;
  }
}
function memoryEvents(events2, id, max) {
  const out2 = [];
  let total = 0;
  for (let i = events2.length - 1; i >= 0; i--) {
    const e = events2[i];
    const detail = describe2(e, id);
    if (detail === null) continue;
    total++;
    if (out2.length < max) out2.push({ ts: e.ts, kind: e.kind, actor: actorOf(e), detail, session: String(e.session ?? "") });
  }
  return { total, events: out2 };
}

// server/src/core/curation/activity.ts
var DAY_MS5 = 864e5;
function activity(now, records, events2, opts) {
  const end = Math.floor(now.getTime() / DAY_MS5) * DAY_MS5 + DAY_MS5;
  const span = opts.days * DAY_MS5;
  const first = end - opts.buckets * span;
  const out2 = [];
  for (let i = 0; i < opts.buckets; i++) {
    const s2 = first + i * span;
    out2.push({
      start: new Date(s2).toISOString().slice(0, 10),
      end: new Date(s2 + span - DAY_MS5).toISOString().slice(0, 10),
      created: 0,
      removed: 0,
      retrievals: 0,
      user_lookups: 0,
      uses: Object.fromEntries(USE_OUTCOMES.map((o) => [o, 0]))
    });
  }
  const at2 = (ts) => {
    if (ts === void 0) return null;
    const t = Date.parse(ts);
    if (!(t >= first && t < end)) return null;
    return out2[Math.floor((t - first) / span)];
  };
  for (const r of records) {
    const c = at2(r.created);
    if (c) c.created++;
    const d = at2(r.removed);
    if (d) d.removed++;
  }
  for (const e of events2) {
    const b = at2(e.ts);
    if (!b) continue;
    const hits = retrievalsOf(e).length;
    if (hits > 0) {
      if (actorOf(e) === "user") b.user_lookups += hits;
      else b.retrievals += hits;
      continue;
    }
    const u2 = useOf(e);
    if (u2) b.uses[u2.outcome] += u2.ids.length;
  }
  return out2;
}

// server/src/core/ops/insight.ts
var repoKeys2 = /* @__PURE__ */ new WeakMap();
function repoOf(m) {
  let k = repoKeys2.get(m);
  if (k === void 0) repoKeys2.set(m, k = originRepoKey(m.origin));
  return k;
}
var SIGNAL_TTL_MS = 3e4;
var signalCache = /* @__PURE__ */ new WeakMap();
async function signalsOf(c, mems) {
  const now = Date.now();
  const missing = mems.filter((m) => {
    const s2 = signalCache.get(m);
    return s2 === void 0 || now - s2.at > SIGNAL_TTL_MS;
  });
  const byOwner = /* @__PURE__ */ new Map();
  for (const m of missing) {
    const o = ownerOf(c, m);
    const g = byOwner.get(o);
    if (g) g.push(m);
    else byOwner.set(o, [m]);
  }
  for (const [o, group] of byOwner) {
    const sig = await computeSignals(signalContext(o), group);
    for (const m of group) signalCache.set(m, { at: now, sig: sig.get(m.id) });
  }
  return mems.map((m) => signalCache.get(m).sig);
}
var BROWSE_SORTS = ["updated", "created", "verified", "scope"];
var VERIFICATION_STATES = ["never", "stale", "fresh"];
function pick2(v, arg, allowed) {
  if (v === void 0 || v === null || v === "") return void 0;
  if (typeof v === "string" && allowed.includes(v)) return v;
  throw new ValidationError(`${arg} must be one of ${allowed.join(", ")}, got ${JSON.stringify(v)}`);
}
function day(v, arg) {
  if (v === void 0 || v === null || v === "") return void 0;
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) {
    throw new ValidationError(`${arg} must be a day like 2026-01-31, got ${JSON.stringify(v)}`);
  }
  return Date.parse(`${v}T00:00:00Z`);
}
async function browse(c, input) {
  const category = pick2(input.category, "category", CATEGORIES);
  const confidence = pick2(input.confidence, "confidence", CONFIDENCES);
  const verification = pick2(input.verification, "verification", VERIFICATION_STATES);
  const verdict = pick2(input.verdict, "verdict", VERDICTS);
  const expired = pick2(input.expired, "expired", ["hide", "only", "include"]) ?? "hide";
  const sort = pick2(input.sort, "sort", BROWSE_SORTS) ?? "updated";
  const order = pick2(input.order, "order", ["asc", "desc"]) ?? "desc";
  const from = day(input.created_from, "created_from");
  const toDay = day(input.created_to, "created_to");
  const to = toDay === void 0 ? void 0 : toDay + 864e5;
  const scope = input.scope === void 0 || input.scope === "" ? null : validateScopeFilter(input.scope, "scope");
  const matchOne = scope === null ? null : scopeFilterMatcher([scope]);
  const scopeHits = /* @__PURE__ */ new Map();
  const matchScope = matchOne === null ? null : (scopes) => scopes.some((s2) => {
    let hit = scopeHits.get(s2);
    if (hit === void 0) scopeHits.set(s2, hit = matchOne([s2]));
    return hit;
  });
  const words = (input.text ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const tagged = structureFilter((input.tags ?? "").split(/[\s,]+/).filter(Boolean), null);
  if (words.join(" ").length > LIMITS.queryChars) throw new ValidationError(`text is longer than ${LIMITS.queryChars} characters`);
  const offset = input.offset ?? 0;
  const limit = input.limit ?? 50;
  if (!Number.isInteger(offset) || offset < 0) throw new ValidationError(`offset must be a whole number from 0, got ${JSON.stringify(input.offset)}`);
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.pageSize) throw new ValidationError(`limit must be a whole number from 1 to ${LIMITS.pageSize}`);
  await c.store.ensureFresh();
  if (c.team !== null) await c.team.store.ensureFresh();
  const now = c.now();
  const staleDays = c.config.behavior.verification_stale_days;
  const w2 = watchOf(c);
  if (w2.sorted.version !== w2.version) w2.sorted = { version: w2.version, byKey: /* @__PURE__ */ new Map() };
  const sortKey2 = `${sort}:${order}`;
  let ordered = w2.sorted.byKey.get(sortKey2);
  if (!ordered) {
    const key = sort === "created" ? (m) => m.created : sort === "verified" ? (m) => m.last_verified_at ?? "" : sort === "scope" ? (m) => m.scopes[0] ?? "" : (m) => m.updated;
    const dir = order === "asc" ? 1 : -1;
    const keyed = [...activeEverywhere(c)].map((m) => ({ k: key(m), id: m.id, m }));
    keyed.sort((a, b) => a.k < b.k ? -dir : a.k > b.k ? dir : a.id < b.id ? -dir : a.id > b.id ? dir : 0);
    ordered = keyed.map((x) => ({ m: x.m, repo: repoOf(x.m) ?? "none", expMs: x.m.expires === null ? Infinity : Date.parse(x.m.expires) }));
    w2.sorted.byKey.set(sortKey2, ordered);
  }
  const repos = /* @__PURE__ */ new Map();
  let rows = [];
  const nowMs = now.getTime();
  for (const { m, repo: r, expMs } of ordered) {
    const exp = expMs <= nowMs;
    if (expired === "hide" ? exp : expired === "only" ? !exp : false) continue;
    repos.set(r, (repos.get(r) ?? 0) + 1);
    if (input.repo && r !== input.repo) continue;
    if (matchScope && !matchScope(m.scopes)) continue;
    if (category && m.category !== category) continue;
    if (confidence && m.confidence !== confidence) continue;
    if (verification && verificationOf(m.last_verified_at, now, staleDays).status !== verification) continue;
    if (from !== void 0 || to !== void 0) {
      const t = Date.parse(m.created);
      if (!(t >= (from ?? -Infinity) && t < (to ?? Infinity))) continue;
    }
    if (tagged && !tagged(m)) continue;
    if (words.length > 0) {
      const hay = (m.aliases?.length ? `${m.body}
${m.aliases.join("\n")}` : m.body).toLowerCase();
      if (!words.every((x) => hay.includes(x))) continue;
    }
    rows.push(m);
  }
  if (verdict !== void 0 || input.drift === true) {
    const sig2 = await signalsOf(c, rows);
    rows = rows.filter((_, i) => {
      const s2 = sig2[i];
      if (verdict !== void 0 && s2.staleness_verdict !== verdict) return false;
      if (input.drift === true && !(s2.path_drift_missing > 0 || (s2.commit_drift_count ?? 0) > 0)) return false;
      return true;
    });
  }
  const page = rows.slice(offset, offset + limit);
  const sig = await signalsOf(c, page);
  const items = page.map((m, i) => ({
    ...recordHead(m),
    store: ownerOf(c, m).storeKind,
    ...sig[i],
    summary: summarize(m.body, 140),
    repo: repoOf(m),
    expired: isExpired(m, now)
  }));
  return {
    total: rows.length,
    offset,
    limit,
    items,
    repos: [...repos].map(([repo, count]) => ({ repo, count })).sort((a, b) => b.count - a.count || a.repo.localeCompare(b.repo))
  };
}
async function searchPreview(c, input) {
  if (typeof input.query !== "string" || input.query.trim() === "") return { hits: [] };
  if (input.query.length > LIMITS.queryChars) throw new ValidationError(`query is ${input.query.length} characters long: at most ${LIMITS.queryChars} are accepted`);
  const l = c.services.index;
  if (l === null) throw new Error("the search index is not open");
  await c.store.ensureFresh();
  const repo = c.caller.repoKey;
  const auto = input.auto_scope === true;
  const limit = input.max_results ?? 20;
  const disabled = (m) => m.scopes.some((s2) => [...c.disabledScopes].some((d) => s2 === d || s2.startsWith(`${d}:`)));
  const own2 = {
    l,
    sem: c.services.semantic,
    opts: {
      limit,
      now: c.now().getTime(),
      halfLifeDays: c.config.behavior.recency_half_life_days,
      ...c.disabledScopes.size > 0 || auto ? {
        filter: (m) => {
          if (auto) {
            const k = repoOf(m);
            if (k !== null && k !== repo) return false;
          }
          return !disabled(m);
        },
        filterKey: JSON.stringify(["ui", [...c.disabledScopes].sort(), auto ? repo : false])
      } : {}
    }
  };
  const t = c.team;
  const tl = t?.services.index ?? null;
  if (t !== null) await t.store.ensureFresh();
  const sources = [own2];
  if (t !== null && tl !== null) {
    sources.push({ l: tl, sem: t.services.semantic, opts: { limit, now: c.now().getTime(), halfLifeDays: c.config.behavior.recency_half_life_days, filter: (m) => !c.store.holds(m.id) && !disabled(m) } });
  }
  const found = await rankedAcross(sources, input.query, [], limit);
  const fields = await ownedHitFields(c, found.map((h) => h.doc));
  return {
    hits: found.map((h, i) => ({ ...fields[i], snippet: h.snippet, score: h.score, relevance: h.relevance, match_terms: h.matchTerms }))
  };
}
var ULID_IN_TEXT = /\b[0-9A-HJKMNP-TV-Z]{26}\b/g;
async function memoryPage(c, input) {
  const id = checkId(input.id);
  await c.store.ensureFresh();
  const m = c.store.get(id) ?? c.store.getTombstone(id);
  if (!m) throw new NotFoundError(`no memory with id ${id}`);
  const [fields] = await hitFields(c, [m], true);
  const log = memoryEvents(events(c), id, input.events ?? 200);
  const brief = (x) => ({ id: x.id, scopes: x.scopes, summary: summarize(x.body, 120), removed: x.tombstoned });
  const similar = m.tombstoned ? [] : candidatesFor(c, m.body, 8).filter((x) => x !== id).slice(0, 5).map((x) => c.store.get(x)).filter((x) => x !== void 0).map(brief);
  const links = [...new Set(m.body.match(ULID_IN_TEXT) ?? [])].filter((x) => x !== id).map((x) => c.store.get(x) ?? c.store.getTombstone(x)).filter((x) => x !== void 0).map(brief);
  const backlinks = [];
  if (!m.tombstoned) {
    for (const b of backlinksOf(c, m)) {
      const o = c.store.get(b.id);
      if (o && !backlinks.some((x) => x.id === o.id)) backlinks.push({ ...brief(o), relation: b.relation });
    }
  }
  for (const o of c.store.active()) if (o.id !== id && o.body.includes(id) && !backlinks.some((x) => x.id === o.id)) backlinks.push(brief(o));
  return {
    memory: {
      ...fields,
      body: m.body,
      aliases: m.aliases ? [...m.aliases] : [],
      source: m.source,
      origin: m.origin,
      expires: m.expires,
      expired: isExpired(m, c.now()),
      file: m.file,
      extra_frontmatter: [...m.extra],
      removed: m.removed ?? null,
      removed_reason: m.removed_reason ?? null,
      tombstoned: m.tombstoned,
      repo: repoOf(m)
    },
    events: log.events,
    events_total: log.total,
    similar,
    links,
    backlinks: backlinks.slice(0, 20)
  };
}
var watches = /* @__PURE__ */ new WeakMap();
function watchOf(c) {
  let w2 = watches.get(c);
  if (!w2) {
    const bump = () => {
      w2.version++;
    };
    const stops = [c.store.onChange(bump), ...c.team !== null ? [c.team.store.onChange(bump)] : []];
    const stop = () => {
      for (const s2 of stops) s2();
    };
    watches.set(c, w2 = { version: 0, stop, overview: null, health: null, events: null, sorted: { version: -1, byKey: /* @__PURE__ */ new Map() } });
  }
  return w2;
}
function eventsStamp(c) {
  const file = c.services.events?.file;
  if (!file) return "none";
  const st = statSyncSafe(file);
  return st ? `${st.size}:${st.mtimeMs}` : "none";
}
function statSyncSafe(file) {
  try {
    return statSync9(file);
  } catch {
    return null;
  }
}
function events(c) {
  const w2 = watchOf(c);
  const key = eventsStamp(c);
  if (w2.events?.key === key) return w2.events.value;
  const value = readEvents(c.eventsDir).events;
  w2.events = { key, value };
  return value;
}
async function cachedHealth(c, input) {
  await c.store.ensureFresh();
  const w2 = watchOf(c);
  const key = () => `${w2.version}:${eventsStamp(c)}:${JSON.stringify(input)}:${c.now().toISOString().slice(0, 13)}`;
  const before = key();
  if (w2.health?.key === before) return w2.health.value;
  const value = await health(c, input);
  if (key() === before) w2.health = { key: before, value };
  return value;
}
async function overview(c, input = {}) {
  const weeks = input.weeks ?? 12;
  if (!Number.isInteger(weeks) || weeks < 1 || weeks > 104) throw new ValidationError("weeks must be a whole number from 1 to 104");
  await c.store.ensureFresh();
  const w2 = watchOf(c);
  const now = c.now();
  const key = `${w2.version}:${eventsStamp(c)}:${weeks}:${now.toISOString().slice(0, 13)}`;
  if (w2.overview?.key === key) return w2.overview.value;
  const staleDays = c.config.behavior.verification_stale_days;
  const repos = /* @__PURE__ */ new Map();
  const scopes = /* @__PURE__ */ new Map();
  const verification = { never: 0, stale: 0, fresh: 0 };
  let active = 0;
  let expired = 0;
  const records = [];
  for (const m of c.store.active()) {
    records.push(m);
    if (isExpired(m, now)) {
      expired++;
      continue;
    }
    active++;
    const r = repoOf(m) ?? "none";
    repos.set(r, (repos.get(r) ?? 0) + 1);
    for (const s2 of m.scopes) scopes.set(s2, (scopes.get(s2) ?? 0) + 1);
    verification[verificationOf(m.last_verified_at, now, staleDays).status]++;
  }
  let tombstoned = 0;
  for (const t of c.store.tombstones()) {
    records.push(t);
    tombstoned++;
  }
  const rep = await cachedHealth(c, {});
  const log = events(c);
  const value = {
    generated_at: now.toISOString(),
    active,
    expired,
    tombstoned,
    pending: (await listPending(c.dir, now)).length,
    by_repo: [...repos].map(([repo, count]) => ({ repo, count })).sort((a, b) => b.count - a.count || a.repo.localeCompare(b.repo)),
    by_scope: [...scopes].map(([scope, count]) => ({ scope, count })).sort((a, b) => b.count - a.count || a.scope.localeCompare(b.scope)),
    verification,
    weekly: activity(now, records, log, { buckets: weeks, days: 7 }),
    health: rep
  };
  const after = `${w2.version}:${eventsStamp(c)}:${weeks}:${now.toISOString().slice(0, 13)}`;
  if (after === key) w2.overview = { key, value };
  return value;
}
async function pendingWrites(c) {
  return listPending(c.dir, c.now());
}
function onChange(c, fn) {
  watchOf(c);
  const unStore = c.store.onChange((ch) => {
    const m = ch.kind === "upsert" ? ch.mem : ch.prev;
    fn({ kind: "memory", id: m.id, removed: ch.kind === "delete" || m.tombstoned });
  });
  const unPending = watchPending(c.dir, () => fn({ kind: "pending" }));
  return () => {
    unStore();
    unPending();
  };
}

// server/src/core/ops/sync.ts
import { existsSync as existsSync10, readFileSync as readFileSync13 } from "node:fs";
import { realpath } from "node:fs/promises";
import { hostname as hostname3 } from "node:os";
import { join as join28, relative as relative2, sep as sep3 } from "node:path";

// server/src/core/sync/driver.ts
import { promises as fsp12 } from "node:fs";
import { basename as basename8, dirname as dirname9, join as join27 } from "node:path";
function parse4(text2) {
  try {
    const { record, extra } = parseMemoryText(text2);
    if (record.id === null || record.created === null || record.updated === null) return null;
    return { record: { ...record, id: record.id, created: record.created, updated: record.updated }, extra };
  } catch {
    return null;
  }
}
function storeRootOf(path) {
  if (path === void 0 || path === "") return ".";
  const d = dirname9(path);
  return basename8(d) === ".tombstones" ? dirname9(d) : d;
}
async function mergeDriver(files, workTree) {
  const [b, o, t] = await Promise.all([files.base, files.ours, files.theirs].map((f) => fsp12.readFile(f, "utf8").catch(() => "")));
  const ours = parse4(o);
  const theirs = parse4(t);
  const base = b.trim() === "" ? null : parse4(b);
  if (ours && theirs && ours.record.id === theirs.record.id && (base === null || base.record.id === ours.record.id) && (b.trim() === "" || base !== null)) {
    const { merged, conflict } = mergeMemory(base, ours, theirs);
    await fsp12.writeFile(files.ours, serializeMemory(merged.record, merged.extra));
    if (conflict) {
      const dir = join27(workTree, storeRootOf(files.path), CONFLICTS_DIR);
      await ensureDir(dir);
      await writeFileAtomic(join27(dir, conflictFileName(conflict)), conflictFileText(conflict), 420);
      return { code: 0, note: `cairn: ${files.path ?? ours.record.id}: merged; the two bodies differed, the other one is kept in ${join27(storeRootOf(files.path), CONFLICTS_DIR, conflictFileName(conflict))}` };
    }
    return { code: 0, note: "" };
  }
  const r = await runGit(workTree, ["merge-file", "-L", "ours", "-L", "base", "-L", "theirs", files.ours, files.base, files.theirs]);
  return { code: r.code === 0 ? 0 : 1, note: r.code === 0 ? "" : `cairn: ${files.path ?? files.ours}: not a cairn memory on every side; merged line by line with conflict markers` };
}

// server/src/core/ops/sync.ts
var stateDir = (dir) => join28(dir, ".git", "cairn-sync");
var stateFile = (dir) => join28(stateDir(dir), "state.json");
function readState(dir) {
  try {
    const s2 = JSON.parse(readFileSync13(stateFile(dir), "utf8"));
    return { last_sync: s2.last_sync ?? null, last_attempt: s2.last_attempt ?? null, last_error: s2.last_error ?? null };
  } catch {
    return { last_sync: null, last_attempt: null, last_error: null };
  }
}
async function writeState(dir, s2) {
  await ensureDir(stateDir(dir));
  await writeFileAtomic(stateFile(dir), `${JSON.stringify(s2, null, 2)}
`);
}
async function ownRepo(dir) {
  if (!existsSync10(join28(dir, ".git"))) return false;
  const top = await repoTop(dir);
  return top !== null && await realpathOf(top) === await realpathOf(dir);
}
async function realpathOf(p) {
  return realpath(p).catch(() => p);
}
async function syncInit(c, input) {
  const dir = c.dir;
  if (input.remote !== void 0 && (typeof input.remote !== "string" || input.remote.trim() === "" || /[\s\0]/.test(input.remote.trim()) || input.remote.startsWith("-"))) {
    throw new ValidationError(`--remote must be a git URL or path, got ${JSON.stringify(redactRemoteUrl(String(input.remote)))}`);
  }
  await ensureDir(dir);
  let created = false;
  if (!await ownRepo(dir)) {
    const top = await repoTop(dir);
    if (top !== null) {
      throw new ValidationError(`the store ${dir} is inside the git repository ${top}: it travels with that repository's own commits (a team store); cairn sync init makes a store its own repository, so use a store outside any repository`);
    }
    await git2(dir, ["init", "-q"]);
    created = true;
  }
  const remote = input.remote?.trim();
  if (remote !== void 0) {
    const cur = await remoteUrl(dir);
    if (cur === null) await git2(dir, ["remote", "add", "origin", remote]);
    else if (cur !== remote) await git2(dir, ["remote", "set-url", "origin", remote]);
  }
  if (await headCommit(dir) === null && (remote ?? await remoteUrl(dir)) !== null) {
    const r = await runGit(dir, ["ls-remote", "--symref", "origin", "HEAD"], { timeoutMs: REMOTE_TIMEOUT_MS });
    const m = /^ref: refs\/heads\/(\S+)\s+HEAD/m.exec(r.stdout.toString());
    if (m) await git2(dir, ["symbolic-ref", "HEAD", `refs/heads/${m[1]}`]);
  }
  const gitignore_updated = await ensureLines(join28(dir, ".gitignore"), GITIGNORE_LINES, "# cairn: per-machine files, never synced");
  const gitattributes_updated = await ensureLines(join28(dir, ".gitattributes"), GITATTRIBUTES_LINES, "# cairn: memory files merge field by field (cairn merge-driver)");
  const driver = await registerMergeDriver(dir, input.driver);
  const branch = await currentBranch2(dir);
  c.log("sync_init", { created_repo: created, remote: redactRemoteUrl(await remoteUrl(dir)) });
  return { store: dir, created_repo: created, remote: redactRemoteUrl(await remoteUrl(dir)), branch, gitignore_updated, gitattributes_updated, merge_driver: driver };
}
var MAX_PUSH_TRIES = 5;
var BUSY = "another cairn sync of this store is running; this one did nothing (run it again when that one ends)";
async function sync(c) {
  const dir = c.dir;
  const report = { ok: false, store: dir, remote: null, branch: null, committed: null, merge: "none", incoming: 0, conflicts: [], file_conflicts: [], pushed: false, ahead: 0, behind: 0, error: null };
  if (!await ownRepo(dir)) throw new ValidationError(`the store ${dir} is not set up for sync: run cairn sync init [--remote URL] first`);
  const syncLock = new StoreLock(stateDir(dir), 5e3);
  const state = readState(dir);
  state.last_attempt = c.now().toISOString();
  let entered = false;
  try {
    await syncLock.run(async () => {
      entered = true;
      const host = hostname3() || "localhost";
      const env = await identityEnv(dir, gitEnv());
      const branch = await currentBranch2(dir);
      report.branch = branch;
      const url = await remoteUrl(dir);
      report.remote = redactRemoteUrl(url);
      const first = await c.store.lock.run(() => commitLocal(dir, env, host));
      if (first) report.committed = first.changes;
      if (url === null) throw new SyncError("no remote is configured: run cairn sync init --remote URL (your changes are committed locally)");
      for (let attempt = 1; ; attempt++) {
        const f = await runGit(dir, ["fetch", "--prune", "--no-tags", "origin"], { timeoutMs: REMOTE_TIMEOUT_MS, env });
        if (f.code !== 0) throw new SyncError(`fetch from ${report.remote} failed: ${firstLines(f.stderr) || `exit ${f.code}`} (your changes are committed locally; the next sync retries)`);
        const knownRenames = new Set(renameIds(dir));
        let incomingTree = null;
        await c.store.lock.run(async () => {
          const late = await commitLocal(dir, env, host);
          if (late) report.committed = mergeSummaries(report.committed, late.changes);
          const ours = await headCommit(dir);
          const theirs2 = await revParse(dir, `refs/remotes/origin/${branch}`);
          incomingTree = theirs2;
          if (theirs2 === null || theirs2 === ours || ours !== null && await isAncestor(dir, theirs2, ours)) {
            if (report.merge === "none") report.merge = theirs2 === null ? "none" : "up-to-date";
            return;
          }
          if (ours === null || await isAncestor(dir, ours, theirs2)) {
            const changes = await treeDiff(dir, ours, theirs2);
            await applyChanges(dir, changes, (m2) => c.warn(m2));
            await git2(dir, ["update-ref", "-m", "cairn sync: fast-forward", `refs/heads/${branch}`, theirs2, ours ?? "0".repeat(40)]);
            await git2(dir, ["read-tree", theirs2]);
            report.merge = report.merge === "merge" ? "merge" : "fast-forward";
            report.incoming += changes.size;
            return;
          }
          const base = (await runGit(dir, ["merge-base", ours, theirs2])).stdout.toString().trim() || null;
          const m = await mergeTrees(dir, base, ours, theirs2);
          await applyChanges(dir, m.changes, (w2) => c.warn(w2));
          await git2(dir, ["add", "-A", "--", "."]);
          const tree = (await git2(dir, ["write-tree"])).trim();
          const msg = `cairn sync (${host}): merged ${m.incoming} change(s) from origin/${branch}${m.conflicts.length ? `, ${m.conflicts.length} conflict(s) kept in .conflicts/` : ""}
`;
          const commit = (await git2(dir, ["commit-tree", tree, "-p", ours, "-p", theirs2, "-F", "-"], { input: msg, env })).trim();
          await git2(dir, ["update-ref", "-m", "cairn sync: merge", `refs/heads/${branch}`, commit, ours]);
          report.merge = "merge";
          report.incoming += m.incoming;
          for (const k of m.conflicts) report.conflicts.push({ id: k.id, kind: k.kind, file: `${CONFLICTS_DIR}/${conflictFileName(k)}` });
          report.file_conflicts.push(...m.fileConflicts);
        });
        const applied = incomingTree === null ? [] : await applyIncomingRenames(c, knownRenames, incomingTree);
        if (applied.length > 0) {
          report.renames_applied = [...report.renames_applied ?? [], ...applied];
          const fix = await c.store.lock.run(() => commitLocal(dir, env, host));
          if (fix) report.committed = mergeSummaries(report.committed, fix.changes);
        }
        const head = await headCommit(dir);
        const theirs = await revParse(dir, `refs/remotes/origin/${branch}`);
        if (head === null || head === theirs) break;
        const p = await runGit(dir, ["push", "--porcelain", "origin", `HEAD:refs/heads/${branch}`], { timeoutMs: REMOTE_TIMEOUT_MS, env });
        if (p.code === 0) {
          report.pushed = true;
          await runGit(dir, ["update-ref", `refs/remotes/origin/${branch}`, head]);
          if (!await revParse(dir, `refs/heads/${branch}@{upstream}`)) await runGit(dir, ["branch", "--set-upstream-to", `origin/${branch}`]);
          break;
        }
        const out2 = `${p.stdout.toString()}
${p.stderr}`;
        const rejected = /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*(?:lock|stale)/i.test(out2);
        if (!rejected || attempt >= MAX_PUSH_TRIES) throw new SyncError(`push to ${report.remote} failed: ${firstLines(redactUrls(p.stderr)) || `exit ${p.code}`} (your changes are committed locally; the next sync retries)`);
      }
      const ab = await aheadBehind(dir, branch);
      report.ahead = ab.ahead;
      report.behind = ab.behind;
      report.ok = true;
    });
  } catch (err) {
    report.error = !entered && err instanceof LockTimeoutError ? BUSY : redactUrls(errorMessage(err));
  }
  if (report.ok) {
    state.last_sync = state.last_attempt;
    state.last_error = null;
  } else state.last_error = report.error;
  await writeState(dir, state).catch(() => {
  });
  c.log("sync", { ok: report.ok, merge: report.merge, incoming: report.incoming, committed: report.committed ? changeCount(report.committed) : 0, conflicts: report.conflicts.length, pushed: report.pushed, error: report.error });
  return report;
}
async function applyIncomingRenames(c, known, theirs) {
  const fresh = renameIds(c.dir).filter((id) => !known.has(id));
  if (fresh.length === 0) return [];
  await c.store.lock.run(() => c.store.sync());
  const theirFiles = new Set((await git2(c.dir, ["ls-tree", "-r", "--name-only", "-z", theirs])).split("\0").filter(Boolean));
  const only = (m) => !theirFiles.has(relative2(c.dir, m.file).split(sep3).join("/"));
  const out2 = [];
  for (const id of fresh) {
    const r = readRename(c.dir, id);
    if (r === null) continue;
    try {
      const res = await renameScope(c, { old_scope: r.old_scope, new_scope: r.new_scope, include_tombstones: r.include_tombstones }, { record: false, only });
      const ids2 = [...res.active, ...res.tombstoned];
      if (ids2.length > 0) out2.push({ old_scope: r.old_scope, new_scope: r.new_scope, ids: ids2 });
    } catch (err) {
      if (!(err instanceof NotFoundError)) c.warn(`sync: the scope rename ${r.old_scope} -> ${r.new_scope} from another machine was not applied: ${errorMessage(err)}`);
    }
  }
  return out2;
}
function mergeSummaries(a, b) {
  if (!a) return b;
  return { added: [...a.added, ...b.added], updated: [...a.updated, ...b.updated], removed: [...a.removed, ...b.removed], restored: [...a.restored, ...b.restored], purged: [...a.purged, ...b.purged], files: [...a.files, ...b.files] };
}
async function status(c) {
  const dir = c.dir;
  const st = readState(dir);
  const conflicts = await listConflicts(dir);
  const base = { store: dir, repo: false, remote: null, branch: null, ahead: 0, behind: 0, dirty: 0, last_sync: null, last_attempt: null, last_error: null, auto: c.config.sync.auto, conflicts: conflicts.memories.length + conflicts.files.length };
  if (!await ownRepo(dir)) return base;
  const branch = await currentBranch2(dir).catch(() => null);
  const ab = branch ? await aheadBehind(dir, branch) : { ahead: 0, behind: 0 };
  return { ...base, repo: true, remote: redactRemoteUrl(await remoteUrl(dir)), branch, ahead: ab.ahead, behind: ab.behind, dirty: (await dirtyPaths(dir)).length, last_sync: st.last_sync, last_attempt: st.last_attempt, last_error: st.last_error };
}
function mergeDriver2(files, workTree) {
  return mergeDriver(files, workTree);
}
var AutoSync = class {
  constructor(c, run = () => sync(c)) {
    this.c = c;
    this.run = run;
  }
  c;
  run;
  timer = null;
  interval = null;
  running = null;
  again = false;
  lastError = null;
  stopped = false;
  start() {
    const ms = this.c.config.sync.interval_minutes * 6e4;
    this.interval = setInterval(() => this.kick(), ms);
    this.interval.unref();
    this.schedule();
  }
  /** A write happened: sync after the debounce. */
  schedule() {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), this.c.config.sync.debounce_seconds * 1e3);
    this.timer.unref();
  }
  kick() {
    this.timer = null;
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().then((r) => this.report(r.ok || r.error === BUSY ? null : r.error)).catch((err) => this.report(errorMessage(err))).finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.schedule();
      }
    });
  }
  report(error) {
    if (error === null) {
      if (this.lastError !== null) this.c.warn("sync: working again");
      this.lastError = null;
      return;
    }
    if (this.lastError === null) this.c.warn(`sync failed (retrying every ${this.c.config.sync.interval_minutes} min; said once): ${error}`);
    this.lastError = error;
  }
  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.interval) clearInterval(this.interval);
    await this.running?.catch(() => {
    });
  }
};

// server/src/core/ops/team.ts
import { existsSync as existsSync11, readFileSync as readFileSync14 } from "node:fs";
import { join as join29 } from "node:path";
var TEAM_MARKER_TEXT = [
  "# cairn team store: memories shared with everyone who clones this repository.",
  "# Each *.md file here is one memory (docs/format.md); commit them with the code.",
  '# Written with `memory_write store: "team"` or `cairn remember --team`; never secrets or claims about a person.',
  "# Caches, the event log and pending writes stay on each machine (.gitignore).",
  ""
].join("\n");
var README_TEXT = [
  "This directory is a cairn team store: project memories shared through git.",
  "Each .md file is one memory (id, scopes, body); .tombstones/ holds removed ones with the reason.",
  `cairn searches it beside each developer's personal memories when run in this repository (README "Team memory").`,
  ""
].join("\n");
async function teamInit(c, input = {}) {
  const root = c.caller.repoRoot;
  if (root === null) throw new ValidationError(`${c.caller.cwd} is not inside a git repository: run cairn team init in the repository whose team store it is`);
  const dir = join29(root, ".cairn");
  if (dir === c.dir) {
    throw new ValidationError(
      `${dir} is the store in use (${c.env.CAIRN_DIR ? "$CAIRN_DIR points at it" : "a project store: .cairn/ without team.toml"}): a team store is shared through git with everyone who has the repository, so cairn will not turn a personal store into one; review its memories, then create ${join29(dir, TEAM_MARKER)} by hand to share them as they are, or move the personal store elsewhere first. Nothing was changed`
    );
  }
  const existed = findTeamStore(root) !== null;
  const files = [];
  await ensureDir(dir);
  const marker = join29(dir, TEAM_MARKER);
  if (!existsSync11(marker)) {
    await writeFileAtomic(marker, TEAM_MARKER_TEXT, 420);
    files.push(marker);
  }
  const readme = join29(dir, "README.txt");
  if (!existsSync11(readme)) {
    await writeFileAtomic(readme, README_TEXT, 420);
    files.push(readme);
  }
  if (await ensureLines(join29(dir, ".gitignore"), GITIGNORE_LINES, "# cairn: per-machine files (caches, event log, pending writes, locks) are never shared")) files.push(join29(dir, ".gitignore"));
  if (await ensureLines(join29(dir, ".gitattributes"), GITATTRIBUTES_LINES, "# cairn: memory files merge field by field (cairn merge-driver)")) files.push(join29(dir, ".gitattributes"));
  const merge_driver = input.driver ? await registerMergeDriver(root, input.driver) : null;
  return { dir, repo_root: root, created: !existed, files, merge_driver };
}
function teamStatus(c) {
  const t = c.team;
  return {
    enabled: c.config.team.enabled,
    repo_root: c.caller.repoRoot,
    dir: t?.dir ?? (c.config.team.enabled ? findTeamStore(c.caller.repoRoot) : null),
    open: t !== null,
    active: t ? t.store.activeCount : 0,
    tombstoned: t ? [...t.store.tombstones()].length : 0
  };
}
function idClashes(c) {
  const t = c.team;
  if (t === null) return [];
  const out2 = [];
  for (const src of [t.store.active(), t.store.tombstones()]) for (const m of src) if (c.store.holds(m.id)) out2.push(m.id);
  return out2.sort();
}
function teamProblems(c) {
  const t = c.team;
  if (t === null) return null;
  let ignore = [];
  try {
    ignore = readFileSync14(join29(t.dir, ".gitignore"), "utf8").split(/\r?\n/).map((l) => l.trim());
  } catch {
    ignore = [];
  }
  return {
    unreadable_files: [...t.store.skipped(), ...t.store.shadowed()].map((f) => ({ file: f.file, reason: f.reason })),
    id_clashes: idClashes(c),
    gitignore_missing: GITIGNORE_LINES.filter((l) => !ignore.includes(l))
  };
}

// server/src/core/io/import/anthropicMemories.ts
import { relative as relative3, sep as sep4 } from "node:path";
var TEXT_SPLIT = /\.(md|markdown|txt)$/i;
function parseAnthropicMemories(path) {
  const st = statPath(path);
  if (!st.isDirectory()) throw sourceError(path, null, "is not a directory: give the folder the memory tool writes (its /memories)");
  const files = walkFiles(path, () => true);
  const candidates2 = [];
  const skipped = [];
  for (const file of files) {
    const rel = relative3(path, file).split(sep4).join("/");
    let src;
    try {
      src = readSource(file);
    } catch (err) {
      if (/binary file/.test(err.message)) {
        skipped.push({ label: rel, reason: "a binary file" });
        continue;
      }
      throw err;
    }
    const date = mtimeIso(src.stat);
    const top = rel.includes("/") ? rel.slice(0, rel.indexOf("/")) : stem2(file);
    const scopes = [slugScope(top, "memories")];
    const pieces = TEXT_SPLIT.test(file) ? markdownItems(src.text) : src.text.trim() ? [{ text: src.text.trim(), line: 1, heading: null, listItem: false }] : [];
    if (pieces.length === 0) skipped.push({ label: rel, reason: "an empty file" });
    for (const p of pieces) {
      candidates2.push({
        key: `${rel}#${hashOf(p.text)}`,
        label: `${rel}:${p.line}`,
        body: p.text,
        scopes,
        source: "inferred",
        aliases: aliasList2([p.heading]),
        created: date,
        updated: date
      });
    }
  }
  if (files.length === 0) throw sourceError(path, null, "holds no files: is it the memory tool's /memories folder?");
  return { format: "anthropic-memories", path, candidates: candidates2, skipped };
}

// server/src/core/io/import/basicMemory.ts
import { basename as basename9, relative as relative4, sep as sep5 } from "node:path";
var OBSERVATION2 = /^\s*[-*]\s+\[([^\[\]()]+)\]\s+(.+?)\s*$/;
var RELATION2 = /^\s*[-*]\s+(?:"([^"]+)"|'([^']+)'|([^\s[\]]+))\s+\[\[([^\]]+)\]\](?:\s*\(([^()]*)\))?\s*$/;
var BARE_LINK = /^\s*[-*]\s+\[\[([^\]]+)\]\]\s*$/;
function parseBasicMemory(path) {
  if (!statPath(path).isDirectory()) throw sourceError(path, null, "is not a directory: give the Basic Memory project folder (~/basic-memory by default)");
  const files = walkFiles(path, (n) => n.endsWith(".md"));
  if (files.length === 0) throw sourceError(path, null, "holds no notes (*.md): is it a Basic Memory project folder?");
  const candidates2 = [];
  const skipped = [];
  const projectScope = slugScope(basename9(path), "notes");
  for (const file of files) {
    const rel = relative4(path, file).split(sep5).join("/");
    const { text: text2, stat } = readSource(file);
    const { data, body, bodyLine } = frontmatter2(text2, file);
    const fmLine = (key) => {
      const i = text2.split("\n").findIndex((l) => l.startsWith(`${key}:`));
      return i === -1 ? 1 : i + 1;
    };
    const str4 = (key) => {
      const v = data[key];
      if (v === void 0 || v === null) return void 0;
      if (typeof v === "string" || typeof v === "number") return String(v);
      throw sourceError(file, fmLine(key), `${key} must be text, got ${JSON.stringify(v)}`);
    };
    const title = str4("title") ?? stem2(file);
    const permalink = str4("permalink") ?? rel.replace(/\.md$/, "");
    const tags = Array.isArray(data.tags) ? data.tags.map(String) : typeof data.tags === "string" ? data.tags.split(",").map((t) => t.trim()) : [];
    const date = (key) => isoDate(data[key], (w2) => sourceError(file, fmLine(key), `${key} ${w2}`));
    const created = date("created") ?? mtimeIso(stat);
    const updated = date("modified") ?? date("updated") ?? mtimeIso(stat);
    const scopes = [rel.includes("/") ? slugScope(rel.slice(0, rel.indexOf("/")), projectScope) : projectScope];
    const base = { scopes, created, updated: Date.parse(updated) < Date.parse(created) ? created : updated };
    const rest = [];
    const relations = [];
    let relLine = 0;
    let inFence = false;
    body.split("\n").forEach((raw, i) => {
      const line = raw.replace(/\r$/, "");
      const n = bodyLine + i;
      if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
      if (inFence || /^\s*(```|~~~)/.test(line)) {
        rest.push(line);
        return;
      }
      const obs = OBSERVATION2.exec(line);
      if (obs && !/^[ xX-]$/.test(obs[1]) && !/^\(/.test(obs[2])) {
        const category = obs[1].trim();
        let content = obs[2];
        const ctx = /\s*\(([^()]*)\)\s*$/.exec(content);
        if (ctx) content = content.slice(0, ctx.index);
        const inlineTags = [...content.matchAll(/(?:^|\s)#([\p{L}\p{N}_-]+)/gu)].map((m) => m[1]);
        content = content.replace(/(?:^|\s)#[\p{L}\p{N}_-]+/gu, "").trim();
        rest.push("");
        if (content === "") {
          skipped.push({ label: `${rel}:${n}`, reason: "an observation with no text" });
          return;
        }
        const text3 = `${title}: ${content}${ctx ? ` (${ctx[1].trim()})` : ""}`;
        candidates2.push({ key: `${permalink}#${hashOf(`${category}|${text3}`)}`, label: `${rel}:${n}`, body: text3, aliases: aliasList2([category, ...inlineTags, ...tags]), ...base });
        return;
      }
      const r = RELATION2.exec(line);
      const bare = BARE_LINK.exec(line);
      if (r || bare) {
        if (!relLine) relLine = n;
        relations.push(r ? `- ${r[1] ?? r[2] ?? r[3]} [[${r[4]}]]${r[5] ? ` (${r[5].trim()})` : ""}` : `- links_to [[${bare[1]}]]`);
        rest.push("");
        return;
      }
      rest.push(line);
    });
    if (relations.length) {
      const text3 = `${title}
${relations.join("\n")}`;
      candidates2.push({ key: `${permalink}#relations`, label: `${rel}:${relLine} (relations)`, body: text3, aliases: aliasList2([title]), ...base });
    }
    const before = candidates2.length;
    for (const item of markdownItems(rest.join("\n"), bodyLine)) {
      if (item.text.trim() === title.trim()) continue;
      const text3 = `${title}: ${item.text}`;
      candidates2.push({ key: `${permalink}#${hashOf(item.text)}`, label: `${rel}:${item.line}`, body: text3, aliases: aliasList2([item.heading && !/^(observations|relations)$/i.test(item.heading) ? item.heading : null, ...tags]), ...base });
    }
    if (candidates2.length === before && !relations.length && !candidates2.some((c) => c.key.startsWith(`${permalink}#`))) skipped.push({ label: rel, reason: "a note with no observations, relations or text" });
  }
  return { format: "basic-memory", path, candidates: candidates2, skipped };
}

// server/src/core/io/import/bettermemory.ts
import { readdirSync as readdirSync9 } from "node:fs";
import { join as join30, relative as relative5, sep as sep6 } from "node:path";
function mdFiles(dir) {
  let names;
  try {
    names = readdirSync9(dir, { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith(".md") && !e.name.startsWith(".")).map((e) => e.name);
  } catch {
    return [];
  }
  return names.sort().map((n) => join30(dir, n));
}
function lineOf(text2, key) {
  const i = text2.split("\n").findIndex((l) => l.startsWith(`${key}:`));
  return i === -1 ? 1 : i + 1;
}
function parseBettermemory(path) {
  if (!statPath(path).isDirectory()) throw sourceError(path, null, "is not a directory: give the bettermemory store folder (~/.claude-memory)");
  const active = mdFiles(path);
  const tombs = mdFiles(join30(path, ".tombstones"));
  if (active.length === 0 && tombs.length === 0) throw sourceError(path, null, "holds no memory files (*.md): is it a bettermemory store?");
  const candidates2 = [];
  const skipped = [];
  for (const file of [...active, ...tombs]) {
    const { text: text2, stat } = readSource(file);
    const { data, body } = frontmatter2(text2, file);
    const bad = (key, msg) => sourceError(file, lineOf(text2, key), msg);
    if (Object.keys(data).length === 0) throw sourceError(file, 1, 'has no YAML frontmatter: a bettermemory file starts with "---"');
    const sv = data.schema_version ?? 1;
    if (typeof sv !== "number" || sv > 1) throw bad("schema_version", `schema_version ${JSON.stringify(sv)} is not one this importer reads (1)`);
    const rawScopes = typeof data.scopes === "string" ? [data.scopes] : data.scopes;
    if (!Array.isArray(rawScopes) || rawScopes.length === 0 || !rawScopes.every((s2) => typeof s2 === "string")) throw bad("scopes", "scopes is missing or not a list of names");
    const oneOf3 = (key, allowed) => {
      const v = data[key];
      if (v === void 0 || v === null) return void 0;
      if (typeof v === "string" && allowed.includes(v)) return v;
      throw bad(key, `${key} is ${JSON.stringify(v)}: expected one of ${allowed.join(", ")}`);
    };
    const date = (key) => isoDate(data[key], (w2) => bad(key, `${key} ${w2}`));
    let origin = NULL_ORIGIN;
    if (data.origin !== void 0 && data.origin !== null) {
      if (!isObj(data.origin)) throw bad("origin", "origin is not a mapping of cwd, repo, branch");
      const o = data.origin;
      const s2 = (k) => typeof o[k] === "string" ? o[k] : null;
      origin = { cwd: s2("cwd"), repo: s2("repo"), branch: s2("branch"), worktree_root: s2("worktree_root") };
    }
    const id = data.id === void 0 || data.id === null ? null : String(data.id);
    const created = date("created") ?? mtimeIso(stat);
    const label = `${id ? `memory ${id}` : "memory"} (${relative5(path, file).split(sep6).join("/")})`;
    const content = body.replace(/^\s*\n/, "").replace(/\s+$/, "");
    if (content.trim() === "") {
      skipped.push({ label, reason: "empty body" });
      continue;
    }
    const removedAt = date("removed");
    const tomb = tombs.includes(file);
    const aliases = Array.isArray(data.aliases) ? aliasList2(data.aliases.filter((a) => typeof a === "string")) : void 0;
    candidates2.push({
      key: id ?? file.slice(path.length + 1),
      label,
      body: content,
      scopes: [...new Set(rawScopes.map((s2) => slugScope(s2, "imported")))],
      ...oneOf3("confidence", CONFIDENCES) ? { confidence: oneOf3("confidence", CONFIDENCES) } : {},
      ...oneOf3("source", SOURCES) ? { source: oneOf3("source", SOURCES) } : {},
      ...oneOf3("category", CATEGORIES) ? { category: oneOf3("category", CATEGORIES) } : {},
      ...aliases ? { aliases } : {},
      created,
      updated: date("updated") ?? created,
      last_verified_at: date("last_verified_at") ?? null,
      expires: date("expires") ?? null,
      origin,
      ...tomb || removedAt ? { removed: { ...removedAt ? { at: removedAt } : {}, reason: typeof data.removed_reason === "string" && data.removed_reason.trim() ? data.removed_reason : "removed in bettermemory", session: typeof data.removed_session === "string" ? data.removed_session : null } } : {}
    });
  }
  return { format: "bettermemory", path, candidates: candidates2, skipped };
}

// server/src/core/io/import/claudeCode.ts
import { existsSync as existsSync12, readdirSync as readdirSync10 } from "node:fs";
import { basename as basename10, dirname as dirname10, join as join31, relative as relative6, sep as sep7 } from "node:path";
var INSTRUCTIONS_SCOPE = "instructions";
var encode = (name) => name.replace(/[^a-zA-Z0-9]/g, "-");
function decodeProjectDir(name, root = "/") {
  const visit = (rest, dir, depth) => {
    if (rest === "") return dir;
    if (depth > 40 || !rest.startsWith("-")) return null;
    let entries;
    try {
      entries = readdirSync10(dir, { withFileTypes: true }).filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name);
    } catch {
      return null;
    }
    for (const e of entries.sort((a, b) => b.length - a.length)) {
      const enc = `-${encode(e)}`;
      if (rest === enc || rest.startsWith(`${enc}-`)) {
        const found = visit(rest.slice(enc.length), join31(dir, e), depth + 1);
        if (found) return found;
      }
    }
    return null;
  };
  return visit(name, root, 0);
}
var TYPES = {
  user: { category: "user-inference", source: "inferred" },
  feedback: { category: "fact", source: "user-correction" },
  project: { category: "fact", source: "inferred" },
  reference: { category: "fact", source: "inferred" }
};
async function projectOf(dir) {
  const name = basename10(dir);
  const path = decodeProjectDir(name);
  const tail = name.split("-").filter(Boolean).pop() ?? name;
  const scope = `projects:${slugScope(path ? basename10(path) : tail, "unknown")}`;
  let origin = NULL_ORIGIN;
  if (path) {
    const info = await repoInfo(path);
    origin = info ? { cwd: path, repo: info.url, branch: null, worktree_root: info.root } : { cwd: path, repo: null, branch: null, worktree_root: null };
  }
  return { dir, name, path, scope: scope.length > 64 ? "projects:unknown" : scope, origin };
}
function projectDirs(path) {
  if (!statPath(path).isDirectory()) throw sourceError(path, null, "is not a directory: give ~/.claude, ~/.claude/projects, a project folder in it, or its memory/ folder");
  const subdirs = (d) => readdirSync10(d, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join31(d, e.name)).sort();
  if (existsSync12(join31(path, "projects"))) return { projects: subdirs(join31(path, "projects")).filter((d) => existsSync12(join31(d, "memory"))), claudeHome: path };
  if (basename10(path) === "memory") return { projects: [dirname10(path)], claudeHome: null };
  if (existsSync12(join31(path, "memory"))) return { projects: [path], claudeHome: null };
  const inside = subdirs(path).filter((d) => existsSync12(join31(d, "memory")));
  if (inside.length) return { projects: inside, claudeHome: null };
  throw sourceError(path, null, "holds no Claude Code auto memory (no memory/ folder): give ~/.claude, ~/.claude/projects or ~/.claude/projects/<project>");
}
var INDEX_LINK = /\[[^\]]*\]\(([^)\s]+\.md)\)/g;
function splitFile(label, keyBase, text2, firstLine, skipIndexIn, skipped) {
  const out2 = [];
  for (const item of markdownItems(text2, firstLine)) {
    if (/^@\S+$/.test(item.text.trim())) {
      skipped.push({ label: `${label}:${item.line}`, reason: "an @import line (import that file itself if it holds memories)" });
      continue;
    }
    if (skipIndexIn) {
      const links = [...item.text.matchAll(INDEX_LINK)].map((m) => m[1]);
      if (links.length && links.every((l) => existsSync12(join31(skipIndexIn, l)))) {
        skipped.push({ label: `${label}:${item.line}`, reason: `an index entry pointing to ${links.join(", ")} (imported from there)` });
        continue;
      }
    }
    out2.push({ key: `${keyBase}#${hashOf(item.text)}`, label: `${label}:${item.line}`, body: item.text, ...aliasList2([item.heading]) ? { aliases: aliasList2([item.heading]) } : {} });
  }
  return out2;
}
async function parseClaudeCode(path, opts = {}) {
  const { projects, claudeHome } = projectDirs(path);
  const candidates2 = [];
  const skipped = [];
  for (const dir of projects) {
    const p = await projectOf(dir);
    const memDir = join31(dir, "memory");
    const files = existsSync12(memDir) ? walkFiles(memDir, (n) => n.endsWith(".md")) : [];
    const base = { scopes: [p.scope], origin: p.origin };
    for (const file of files) {
      const rel = relative6(memDir, file).split(sep7).join("/");
      const label = `${p.name}/memory/${rel}`;
      const { text: text2, stat } = readSource(file);
      const date = mtimeIso(stat);
      const { data, body, bodyLine } = frontmatter2(text2, file);
      const type = data.type;
      if (Object.keys(data).length > 0 && (typeof data.type === "string" || typeof data.name === "string")) {
        if (type !== void 0 && (typeof type !== "string" || !(type in TYPES))) {
          const i = text2.split("\n").findIndex((l) => l.startsWith("type:"));
          throw sourceError(file, i === -1 ? 1 : i + 1, `type is ${JSON.stringify(type)}: Claude Code's memory types are ${Object.keys(TYPES).join(", ")}`);
        }
        const content = body.trim();
        if (content === "") {
          skipped.push({ label, reason: "a topic file with no text" });
          continue;
        }
        const kind = TYPES[type ?? "project"];
        candidates2.push({
          key: `${p.name}/memory/${rel}`,
          label,
          body: content,
          ...base,
          ...kind,
          aliases: aliasList2([typeof data.name === "string" ? data.name : null, typeof data.description === "string" ? data.description : null]),
          created: date,
          updated: date
        });
        continue;
      }
      const pieces = splitFile(label, `${p.name}/memory/${rel}`, body, bodyLine, rel === "MEMORY.md" ? memDir : null, skipped);
      if (pieces.length === 0 && !skipped.some((s2) => s2.label.startsWith(`${label}:`))) skipped.push({ label, reason: "an empty file" });
      for (const piece of pieces) candidates2.push({ ...piece, ...base, source: "inferred", created: date, updated: date });
    }
    if (opts.includeClaudeMd && p.path) {
      for (const f of ["CLAUDE.md", join31(".claude", "CLAUDE.md"), "CLAUDE.local.md"]) candidates2.push(...instructionFile(join31(p.path, f), base, skipped));
    }
  }
  if (opts.includeClaudeMd && claudeHome) candidates2.push(...instructionFile(join31(claudeHome, "CLAUDE.md"), { scopes: [], origin: NULL_ORIGIN }, skipped));
  return { format: "claude-code", path, candidates: candidates2, skipped };
}
function instructionFile(file, base, skipped) {
  if (!existsSync12(file)) return [];
  const { text: text2, stat } = readSource(file);
  const date = mtimeIso(stat);
  const { body, bodyLine } = frontmatter2(text2, file);
  return splitFile(file, `CLAUDE.md:${file}`, body, bodyLine, null, skipped).map((piece) => ({
    ...piece,
    ...base,
    markScopes: [INSTRUCTIONS_SCOPE],
    source: "explicit-statement",
    created: date,
    updated: date
  }));
}

// server/src/core/io/import/mem0.ts
function parseMem0(path) {
  const { text: text2 } = readSource(path);
  const trimmed = text2.trimStart();
  let records;
  const cats = /* @__PURE__ */ new Map();
  if (path.endsWith(".jsonl") || trimmed.startsWith("{") && /^\{[^\n]*\}\s*\n\s*\{/.test(trimmed)) {
    records = jsonLines(text2, path).map(({ line, value }) => ({ value, where: `line ${line}`, line }));
  } else {
    const doc = parseJson(text2, path);
    let list2;
    let key = "";
    if (Array.isArray(doc)) list2 = doc;
    else if (isObj(doc) && Array.isArray(doc.memories)) {
      list2 = doc.memories;
      key = "memories";
      const rows = doc.categories;
      if (rows !== void 0) {
        if (!Array.isArray(rows)) throw sourceError(path, null, '"categories" must be a list');
        rows.forEach((r, i) => {
          if (!isObj(r) || typeof r.id !== "string" || typeof r.name !== "string") throw sourceError(path, null, `categories[${i}] needs an "id" and a "name"`);
          cats.set(r.id, r.name);
        });
      }
    } else if (isObj(doc) && Array.isArray(doc.results)) {
      list2 = doc.results;
      key = "results";
    } else throw sourceError(path, 1, 'not a mem0 or OpenMemory export: expected a "memories" or "results" list (or a list of memories)');
    records = list2.map((value, i) => ({ value, where: key ? `${key}[${i}]` : `item ${i}`, line: null }));
  }
  const candidates2 = [];
  const skipped = [];
  for (const { value, where, line } of records) {
    const bad = (msg) => line !== null ? sourceError(path, line, msg) : sourceError(path, null, `${where} ${msg}`);
    if (!isObj(value)) throw bad("is not a JSON object");
    const text3 = value.content ?? value.memory ?? value.text;
    if (typeof text3 !== "string") throw bad('has no "content" (OpenMemory) or "memory" (mem0) text');
    const id = typeof value.id === "string" || typeof value.id === "number" ? String(value.id) : null;
    if (id === null) throw bad('has no "id"');
    const label = `memory ${id} (${where})`;
    if (text3.trim() === "") {
      skipped.push({ label, reason: "empty text" });
      continue;
    }
    const state = value.state ?? "active";
    if (typeof state !== "string" || !["active", "paused", "archived", "deleted"].includes(state)) throw bad(`has "state" ${JSON.stringify(state)}: expected active, paused, archived or deleted`);
    let categories = [];
    if (Array.isArray(value.categories)) categories = value.categories.filter((c) => typeof c === "string");
    else if (Array.isArray(value.category_ids)) categories = value.category_ids.map((c) => cats.get(String(c))).filter((c) => c !== void 0);
    const date = (k) => isoDate(value[k], (w2) => bad(`has "${k}" ${w2}`));
    const created = date("created_at");
    const updated = date("updated_at") ?? created;
    const scopes = [...new Set(categories.map((c) => slugScope(c, "")).filter((s2) => s2 !== ""))].slice(0, 4);
    candidates2.push({
      key: id,
      label,
      body: text3,
      scopes: scopes.length ? scopes : ["mem0"],
      category: "user-inference",
      source: "inferred",
      ...created ? { created } : {},
      ...updated ? { updated } : {},
      ...state === "archived" || state === "deleted" ? { removed: { ...date("deleted_at") ?? date("archived_at") ?? updated ? { at: date("deleted_at") ?? date("archived_at") ?? updated } : {}, reason: `${state} in OpenMemory` } } : {}
    });
  }
  return { format: "mem0", path, candidates: candidates2, skipped };
}

// server/src/core/io/import/memento.ts
import { existsSync as existsSync13 } from "node:fs";
import { basename as basename11, join as join32, relative as relative7 } from "node:path";
function parseMemento(path) {
  const st = statPath(path);
  let root = path;
  let files;
  if (st.isDirectory()) {
    if (existsSync13(join32(path, "memories"))) root = join32(path, "memories");
    files = walkFiles(root, (n) => n.endsWith(".jsonl"));
    if (files.length === 0) throw sourceError(root, null, "holds no .jsonl files: give the Memento home (~/.memento), its memories/ folder or one .jsonl file");
  } else files = [path];
  const latest = /* @__PURE__ */ new Map();
  for (const file of files) {
    const nsFromPath = st.isDirectory() ? relative7(root, file).replace(/\.jsonl$/, "").split("\\").join("/") : "global";
    const { text: text2 } = readSource(file);
    for (const { line, value } of jsonLines(text2, file)) {
      const bad = (msg) => sourceError(file, line, msg);
      if (!isObj(value)) throw bad("not a JSON object");
      if (typeof value.id !== "string" || value.id.trim() === "") throw bad('entry without an "id" string');
      const prev = latest.get(value.id);
      const deleted = value.deleted === true;
      if (value.content !== void 0 && typeof value.content !== "string") throw bad(`entry ${value.id} has "content" that is not a string`);
      const content = value.content ?? prev?.content;
      if (content === void 0) {
        if (deleted) continue;
        throw bad(`entry ${value.id} has no "content"`);
      }
      if (value.tags !== void 0 && (!Array.isArray(value.tags) || !value.tags.every((t) => typeof t === "string"))) throw bad(`entry ${value.id} has "tags" that is not a list of strings`);
      if (value.namespace !== void 0 && typeof value.namespace !== "string") throw bad(`entry ${value.id} has a "namespace" that is not a string`);
      const date = (k) => isoDate(value[k], (w2) => bad(`entry ${value.id} has "${k}" ${w2}`));
      latest.set(value.id, {
        id: value.id,
        namespace: value.namespace ?? prev?.namespace ?? nsFromPath,
        content,
        tags: value.tags ?? prev?.tags ?? [],
        created: date("created") ?? prev?.created,
        updated: date("updated") ?? date("created") ?? prev?.updated,
        ttl: date("ttl"),
        deleted,
        label: `entry ${value.id} (${(st.isDirectory() ? relative7(root, file) : basename11(file)).split("\\").join("/")}:${line})`
      });
    }
  }
  const candidates2 = [];
  const skipped = [];
  for (const e of latest.values()) {
    if (e.content.trim() === "") {
      skipped.push({ label: e.label, reason: "empty content" });
      continue;
    }
    candidates2.push({
      key: e.id,
      label: e.label,
      body: e.content,
      scopes: [slugScope(e.namespace, "global")],
      aliases: aliasList2(e.tags),
      ...e.created ? { created: e.created } : {},
      ...e.updated ? { updated: e.updated } : {},
      ...e.ttl ? { expires: e.ttl } : {},
      ...e.deleted ? { removed: { ...e.updated ? { at: e.updated } : {}, reason: "deleted in Memento" } } : {}
    });
  }
  return { format: "memento", path, candidates: candidates2, skipped };
}

// server/src/core/io/import/serverMemory.ts
import { basename as basename12, join as join33 } from "node:path";
function parseServerMemory(path) {
  const file = statPath(path).isDirectory() ? join33(path, "memory.jsonl") : path;
  const { text: text2 } = readSource(file);
  const entities = /* @__PURE__ */ new Map();
  const relations = /* @__PURE__ */ new Map();
  const order = [];
  for (const { line, value } of jsonLines(text2, file)) {
    const bad = (msg) => sourceError(file, line, msg);
    if (!isObj(value)) throw bad("not a JSON object");
    if (value.type === "entity") {
      if (typeof value.name !== "string" || value.name.trim() === "") throw bad('entity without a "name" string');
      if (value.entityType !== void 0 && typeof value.entityType !== "string") throw bad(`entity "${value.name}" has an "entityType" that is not a string`);
      const obs = value.observations ?? [];
      if (!Array.isArray(obs) || !obs.every((o) => typeof o === "string")) throw bad(`entity "${value.name}" has "observations" that is not a list of strings`);
      const prev = entities.get(value.name);
      if (prev) {
        for (const o of obs) if (!prev.observations.includes(o)) prev.observations.push(o);
      } else {
        entities.set(value.name, { name: value.name, entityType: value.entityType ?? "", observations: [...obs], line });
        order.push(value.name);
      }
    } else if (value.type === "relation") {
      for (const k of ["from", "to", "relationType"]) if (typeof value[k] !== "string" || value[k].trim() === "") throw bad(`relation without a "${k}" string`);
      const from = value.from;
      if (!relations.has(from)) relations.set(from, []);
      const list2 = relations.get(from);
      if (!list2.some((r) => r.to === value.to && r.type === value.relationType)) list2.push({ to: value.to, type: value.relationType, line });
      if (!entities.has(from) && !order.includes(from)) order.push(from);
    } else {
      throw bad(`"type" is ${JSON.stringify(value.type)}: a memory-server line is "entity" or "relation"`);
    }
  }
  const candidates2 = [];
  const skipped = [];
  for (const name of order) {
    const e = entities.get(name);
    const rels = relations.get(name) ?? [];
    const line = e?.line ?? rels[0].line;
    const label = `entity "${name}" (${basename12(file)}:${line})`;
    const lines = [e && e.entityType ? `${name} (${e.entityType})` : name];
    for (const o of e?.observations ?? []) if (o.trim() !== "") lines.push(`- ${o.trim()}`);
    for (const r of rels) lines.push(`- ${r.type} [[${r.to}]]`);
    if (lines.length === 1) {
      skipped.push({ label, reason: "an entity with no observations and no relations" });
      continue;
    }
    const body = lines.join("\n");
    candidates2.push({
      key: `entity:${name}`,
      label,
      body,
      scopes: [slugScope(e?.entityType ?? "", "knowledge-graph")],
      aliases: name.length <= 100 && /[_-]/.test(name) ? [name.replace(/[_-]+/g, " ")] : void 0
    });
  }
  return { format: "server-memory", path: file, candidates: candidates2, skipped };
}

// server/src/core/io/import/index.ts
var PARSERS = {
  "claude-code": parseClaudeCode,
  "server-memory": parseServerMemory,
  "basic-memory": parseBasicMemory,
  memento: parseMemento,
  bettermemory: parseBettermemory,
  mem0: parseMem0,
  "anthropic-memories": parseAnthropicMemories
};
async function parseSource(format, path, opts = {}) {
  if (opts.includeClaudeMd && format !== "claude-code") throw new ValidationError("--include-claude-md applies to --from claude-code only");
  return PARSERS[format](path, opts);
}

// server/src/core/cairn.ts
var BACKGROUND_AFTER_OPEN_MS = 100;
var Cairn = class _Cairn {
  constructor(dir, config, configFile, store, caller, env, watch2, warn, actor, oneShot, storeKind, now) {
    this.dir = dir;
    this.config = config;
    this.configFile = configFile;
    this.store = store;
    this.env = env;
    this.watch = watch2;
    this.warn = warn;
    this.actor = actor;
    this.oneShot = oneShot;
    this.storeKind = storeKind;
    this.clock = now ?? (() => /* @__PURE__ */ new Date());
    this.eventsDir = dir;
    this.callerAt = caller;
  }
  dir;
  config;
  configFile;
  store;
  env;
  watch;
  warn;
  actor;
  oneShot;
  storeKind;
  session = newId();
  disabledScopes = /* @__PURE__ */ new Set();
  services = { index: null, semantic: null, events: null, links: null, feedback: null };
  /** The team store of the caller's repository (README "Team memory"), opened beside this one. */
  team = null;
  /** ops/context.ts: the personal store's dir for both (the team store logs into the personal log). */
  eventsDir;
  clock;
  /** Null only while open() runs: git answers in a child process meanwhile (see open). */
  callerAt;
  /** Where the tools are called from: the cwd, and its repository if it is in one. */
  get caller() {
    if (this.callerAt === null) throw new Error("the caller is asked for before the store finished opening");
    return this.callerAt;
  }
  /** Where the store is and its config, without opening (or creating) anything. */
  static locate(opts) {
    return resolveStore(opts);
  }
  /**
   * The session-start counts (what sessionOverview gives on a peek at the index cache) from the
   * cache's small summary, without opening the store; null when there is no current summary (the
   * caller then opens with oneShot 'cache'). Reads a 4 KB header and a small JSON file.
   */
  static async peekOverview(opts) {
    const loc = resolveStore(opts);
    const caller = await resolveCaller(opts.env, opts.cwd);
    return peekOverview(loc.dir, loc.config.scopes.global, caller.repoKey, /* @__PURE__ */ new Date());
  }
  static async open(opts = {}) {
    const env = opts.env ?? process.env;
    const cwd = opts.cwd ?? process.cwd();
    const loc = resolveStore({ env: opts.dir ? { ...env, CAIRN_DIR: opts.dir } : env, cwd });
    const warn = opts.warn ?? ((m) => process.stderr.write(`cairn: ${m}
`));
    const store = new Store(loc.dir, { warn, nameText: withoutSecrets });
    const asked = resolveCaller(env, cwd);
    asked.catch(() => {
    });
    const c = new _Cairn(loc.dir, loc.config, loc.configFile, store, null, env, opts.watch ?? true, warn, opts.actor ?? "model", opts.oneShot ?? "every-read", "personal", opts.now);
    if (opts.log !== false) openEventLog(c);
    await openIndex(c, opts.progress);
    const caller = c.callerAt = await asked;
    const teamDir = loc.config.team.enabled ? findTeamStore(caller.repoRoot) : null;
    if (teamDir !== null && resolve6(teamDir) !== resolve6(loc.dir)) {
      const t = new _Cairn(teamDir, loc.config, loc.configFile, new Store(teamDir, { warn, nameText: withoutSecrets }), caller, env, opts.watch ?? true, warn, opts.actor ?? "model", opts.oneShot ?? "every-read", "team", opts.now);
      try {
        t.eventsDir = c.dir;
        t.services.events = c.services.events;
        await openIndex(t);
        c.team = t;
      } catch (err) {
        warn(`team store ${teamDir} left out: ${err.message}`);
        await t.close().catch(() => {
        });
      }
    }
    if (opts.autoSync && loc.config.sync.auto) {
      c.autoSync = new AutoSync(c);
      c.autoSync.start();
    }
    c.idleTimer = setTimeout(() => {
      if (c.calls === 0) c.startBackground();
    }, BACKGROUND_AFTER_OPEN_MS);
    c.idleTimer.unref();
    return c;
  }
  calls = 0;
  idleTimer = null;
  /**
   * Runs one call of an adapter (the MCP server's tool calls). The indexes' background work
   * begins once no call is in flight: begun at the end of the open, it ran inside the first
   * answer's own waits (its git and file checks), ahead of the rest of the answer (~50-120 ms at
   * 200k memories: the cache's staleness count and a full garbage collection).
   */
  async during(run) {
    this.calls++;
    try {
      return await run();
    } finally {
      if (--this.calls === 0) this.startBackground();
    }
  }
  startBackground() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.services.index?.startBackground();
    this.team?.services.index?.startBackground();
  }
  autoSync = null;
  /** The context whose pending area holds this pending id (the personal one when neither does). */
  pendingHolder(id) {
    const t = this.team;
    if (t === null || typeof id !== "string" || !/^p_[0-9A-HJKMNP-TV-Z]{26}$/.test(id.trim())) return this;
    const has2 = (dir) => existsSync14(join34(pendingDir(dir), `${id.trim()}.json`));
    return !has2(this.dir) && has2(t.dir) ? t : this;
  }
  /** A write went through: the automatic sync (when on) runs after its debounce, never inside the call. */
  wrote(p) {
    if (this.autoSync === null) return p;
    return p.then((v) => {
      this.autoSync?.schedule();
      return v;
    });
  }
  async close() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const t = this.team;
    this.team = null;
    if (t !== null) {
      t.services.events = null;
      await t.close();
    }
    closeGraph(this);
    await this.autoSync?.stop();
    await closeIndex(this);
    closeEventLog(this);
  }
  now() {
    return this.clock();
  }
  /** Appends to the event log. Never throws: a logging failure must not fail the call. */
  log(kind, fields) {
    try {
      void this.services.events?.append(kind, this.storeKind === "team" ? { ...fields, store: "team" } : fields);
    } catch (err) {
      this.warn(`event log: ${err.message}`);
    }
  }
  /**
   * The context holding a memory id: this store, or the team store when only it knows the id
   * (active or removed). Ids are ULIDs, unique in practice; should both stores hold one id, the
   * personal memory answers and health lists the clash (README "Team memory").
   */
  async holder(id) {
    const t = this.team;
    if (t === null || typeof id !== "string") return this;
    const k = id.trim().toUpperCase();
    await this.store.ensureFresh();
    if (this.store.get(k) || this.store.getTombstone(k)) return this;
    await t.store.ensureFresh();
    return t.store.get(k) || t.store.getTombstone(k) ? t : this;
  }
  /** The store a write goes to: the personal one, or with store: "team" the repository's team store. */
  target(store) {
    if (store === void 0 || store === null || store === "personal") return this;
    if (store !== "team") throw new ValidationError(`store must be "personal" or "team", got ${JSON.stringify(store)}`);
    if (this.team === null) {
      const why = !this.config.team.enabled ? "team stores are turned off ([team] enabled = false in config.toml)" : this.caller.repoRoot === null ? `${this.caller.cwd} is not inside a git repository` : `the repository ${this.caller.repoRoot} has no team store (.cairn/team.toml): run cairn team init there and commit .cairn/`;
      throw new ValidationError(`store "team" is not available: ${why}; nothing was written`);
    }
    return this.team;
  }
  /** The other stores a write to `to` is checked against (duplicates, tombstones). */
  othersOf(to) {
    if (this.team === null) return [];
    return to === this ? [this.team] : [this];
  }
  // One method per tool (docs/tools.md), grouped as the MCP tool files and core/ops are.
  // retrieval
  search(input) {
    return search(this, input);
  }
  show(input) {
    return show(this, input);
  }
  list(input) {
    return list(this, input);
  }
  /** Every page of list, streamed to `emit`: one freshness check and one event (CLI list --all). */
  listEach(input, emit) {
    return listEach(this, input, emit);
  }
  /** memory_scope_overview for the session-start hook: auto_scope, no curation counts. */
  sessionOverview() {
    return scopeOverview(this, { auto_scope: true }, { curation: false });
  }
  scopeOverview(input) {
    return scopeOverview(this, input);
  }
  // writing
  write(input) {
    const { store, ...rest } = input;
    const to = this.target(store);
    return this.wrote(write(to, rest, this.othersOf(to)));
  }
  /** A pending write lives in the store it was meant for: the team store's pending ones confirm there. */
  writeConfirm(input) {
    return this.wrote(writeConfirm(this.pendingHolder(input.pending_id), input));
  }
  writeCancel(input) {
    return writeCancel(this.pendingHolder(input.pending_id), input);
  }
  async update(input) {
    return this.wrote(update(await this.holder(input.id), input));
  }
  async verify(input) {
    return this.wrote(verify(await this.holder(input.id), input));
  }
  // lifecycle
  async remove(input) {
    return this.wrote(remove2(await this.holder(input.id), input));
  }
  async restore(input) {
    return this.wrote(restore(await this.holder(input.id), input));
  }
  listTombstones(input) {
    return listTombstones(this, input);
  }
  pruneTombstones(input) {
    return this.wrote(pruneTombstones(this, input));
  }
  // transfer (CLI export / import)
  exportStore(input) {
    return exportStore(this, input);
  }
  importStore(doc, progress) {
    return this.wrote(importStore(this, doc, progress));
  }
  /** cairn import --from FORMAT PATH: reads the source (nothing written when it is malformed), then gates and, with apply, writes. */
  async importFrom(format, path, opts) {
    const parsed = await parseSource(format, path, { ...opts.includeClaudeMd ? { includeClaudeMd: true } : {}, home: this.env.HOME ?? "" });
    return opts.apply ? this.wrote(importFrom(this, parsed, opts)) : importFrom(this, parsed, opts);
  }
  // notes: Anthropic's memory tool over the notes area, and the link graph
  memoryTool(input) {
    return this.wrote(memoryTool(this, input));
  }
  async related(input) {
    return related(await this.holder(input.id), input);
  }
  // curation
  renameScope(input) {
    return this.wrote(renameScope(this, input));
  }
  scopeDisable(input) {
    return scopeDisable(this, input);
  }
  scopeEnable(input) {
    return scopeEnable(this, input);
  }
  recordUse(input) {
    return recordUse(this, input);
  }
  async health(input) {
    const t = this.team;
    const report = await health(this, input, t);
    const teamReport = t === null ? null : { store: "team", dir: t.dir, ...await health(t, input, this), ...teamProblems(this) };
    return { ...report, store: "personal", consolidation: await consolidationSummary(this), ...teamReport ? { team: teamReport } : {} };
  }
  consolidate(input) {
    return this.wrote(consolidate2(this, input));
  }
  merge(input) {
    return this.wrote(merge(this, input));
  }
  // sync (CLI `cairn sync`; the merge driver runs without opening a store)
  syncInit(input) {
    return syncInit(this, input);
  }
  sync() {
    return sync(this);
  }
  syncStatus() {
    return status(this);
  }
  static mergeDriver(files, workTree) {
    return mergeDriver2(files, workTree);
  }
  // team memory (README "Team memory")
  teamInit(input) {
    return teamInit(this, input);
  }
  teamStatus() {
    return teamStatus(this);
  }
  migrateOrigin(input) {
    return this.wrote(migrateOrigin(this, input));
  }
  // insight: the read-only views of `cairn ui` (no tool of their own; reads are not logged)
  browse(input) {
    return browse(this, input);
  }
  searchPreview(input) {
    return searchPreview(this, input);
  }
  async memoryPage(input) {
    return memoryPage(await this.holder(input.id), input);
  }
  overview(input = {}) {
    return overview(this, input);
  }
  /** memory_health, reused until the store or the event log changes (the UI's health page). */
  healthCached(input) {
    return cachedHealth(this, input);
  }
  pendingWrites() {
    return pendingWrites(this);
  }
  /** Every change to the store or the pending writes, from any process; returns the unsubscribe. */
  onChange(fn) {
    return onChange(this, fn);
  }
};

// server/src/lib/memory-tool.ts
async function cairnMemoryTool(opts = {}) {
  const cairn = await Cairn.open({
    ...opts.dir !== void 0 ? { dir: opts.dir } : {},
    ...opts.cwd !== void 0 ? { cwd: opts.cwd } : {},
    ...opts.env !== void 0 ? { env: opts.env } : {},
    ...opts.warn !== void 0 ? { warn: opts.warn } : {}
  });
  const run = (cmd) => cairn.memoryTool(cmd);
  return {
    view: (c) => run({ command: "view", path: c.path, ...c.view_range !== void 0 ? { view_range: c.view_range } : {} }),
    create: (c) => run({ command: "create", path: c.path, file_text: c.file_text }),
    str_replace: (c) => run({ command: "str_replace", path: c.path, old_str: c.old_str, ...c.new_str !== void 0 ? { new_str: c.new_str } : {} }),
    insert: (c) => run({ command: "insert", path: c.path, insert_line: c.insert_line, insert_text: c.insert_text }),
    delete: (c) => run({ command: "delete", path: c.path }),
    rename: (c) => run({ command: "rename", old_path: c.old_path, new_path: c.new_path }),
    search: async (query, o = {}) => {
      const { hits } = await cairn.search({ query, auto_scope: false, ...o });
      return hits.map((h) => ({ id: h.id, ...h.path !== void 0 ? { path: h.path } : {}, snippet: h.snippet, relevance: h.relevance }));
    },
    close: () => cairn.close()
  };
}
export {
  cairnMemoryTool
};
