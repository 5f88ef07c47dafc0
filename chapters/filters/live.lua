-- live.lua: live examples, computed by the calculator when the book is built.
--
--   ```layout
--   zipped_divide((4,6,8):(48,8,_1), (_2,_2)) => ((_2,_2),(2,3,8)):((48,8),(96,16,_1))
--   size((4,6):(6,_1))
--   ```
-- Each line is an expression, optionally followed by " => " and the result
-- it must give. All lines of a block go to one calculator process (stdin).
-- The build stops, naming the chapter, the expression, the expected and the
-- actual result, when a stated result differs or when the calculator reports
-- an error (an error shown on purpose is stated: "=> error: ...").
-- Blank lines are dropped; lines starting with "#" are shown as comments.
--
--   ```layout-grid
--   (4,6):(6,_1)
--   ```
-- draws each expression as a table, like cute::print_layout (layout --grid).
--
-- In the HTML pages, web/calc.js gives every expression an "edit" button
-- that runs the calculator compiled to WebAssembly.

local calc = os.getenv("LAYOUT") or "build/bin/layout"
local chapter = (PANDOC_STATE.input_files or {})[1] or "the book"

local function fail(msg)
  error("\n" .. chapter .. ": " .. msg .. "\n", 0)
end

local function run(args, input)
  local f = io.open(calc, "r")
  if not f then fail("calculator not found: " .. calc .. " (make " .. calc .. ")") end
  f:close()
  -- through sh, to drop the calculator's standard error: an error it reports is also its
  -- output line, and the filter judges that line (an error shown on purpose stays quiet)
  local argv = {"-c", 'exec "$0" "$@" 2>/dev/null', calc}
  for _, a in ipairs(args) do argv[#argv + 1] = a end
  local ok, out = pcall(pandoc.pipe, "sh", argv, input)
  if ok then return out end
  -- a non-zero exit (some line failed): keep what it printed
  if type(out) == "table" and out.output then return out.output end
  return tostring(out)
end

local function lines_of(text)
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do lines[#lines + 1] = line end
  if lines[#lines] == "" then lines[#lines] = nil end
  return lines
end

local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

local function row(class, inlines, title)
  local attr = pandoc.Attr("", {class}, title and {{"title", title}} or {})
  return pandoc.Div({pandoc.Plain(inlines)}, attr)
end

local function live(cb)
  local items, exprs = {}, {}
  for _, line in ipairs(lines_of(cb.text)) do
    if line:match("^%s*#") then
      items[#items + 1] = {comment = trim(line)}
    elseif line:match("%S") then
      local expr, want = line:match("^(.-)%s+=>%s+(.-)%s*$")
      expr = trim(expr or line)
      items[#items + 1] = {expr = expr, want = want}
      exprs[#exprs + 1] = expr
    end
  end
  local got = lines_of(run({}, table.concat(exprs, "\n") .. "\n"))
  if #got ~= #exprs then
    fail(string.format("the calculator printed %d lines for the %d expressions of a live example block starting with: %s",
      #got, #exprs, exprs[1] or ""))
  end
  local blocks, k = {}, 0
  for _, it in ipairs(items) do
    if it.comment then
      blocks[#blocks + 1] = row("live-comment", {pandoc.Code(it.comment)})
    else
      k = k + 1
      local actual = trim(got[k])
      local is_error = actual:match("^error:") ~= nil
      if it.want and it.want ~= actual then
        fail("live example disagrees with the library\n  expression: " .. it.expr ..
             "\n  expected:   " .. it.want .. "\n  actual:     " .. actual)
      elseif is_error and not it.want then
        fail("live example fails\n  expression: " .. it.expr .. "\n  calculator: " .. actual ..
             "\n  (to show an error on purpose, write: " .. it.expr .. " => " .. actual .. ")")
      end
      blocks[#blocks + 1] = row("live-expr", {pandoc.Code(it.expr)})
      local classes = {"live-result"}
      if is_error then classes[#classes + 1] = "live-error" end
      if it.want then classes[#classes + 1] = "live-checked" end
      local attrs = it.want and {{"title", "checked against the stated result when the book was built"}} or {}
      blocks[#blocks + 1] = pandoc.Div(
        {pandoc.Plain({pandoc.Str("→"), pandoc.Space(), pandoc.Code(actual)})},
        pandoc.Attr("", classes, attrs))
    end
  end
  return pandoc.Div(blocks, pandoc.Attr(cb.identifier, {"live"}))
end

local function grid(cb)
  local blocks = {}
  for _, line in ipairs(lines_of(cb.text)) do
    local expr = trim(line)
    if expr ~= "" then
      local out = run({"--grid", expr}, "")
      if out:match("^error:") or out == "" then
        fail("live grid fails\n  expression: " .. expr .. "\n  calculator: " .. trim(out))
      end
      blocks[#blocks + 1] = row("live-expr", {pandoc.Code(expr)})
      blocks[#blocks + 1] = pandoc.CodeBlock((out:gsub("\n$", "")), pandoc.Attr("", {"live-grid"}))
    end
  end
  return pandoc.Div(blocks, pandoc.Attr(cb.identifier, {"live"}))
end

-- The EPUB has no scripts, so no calculator page: a link to it keeps its text only.
function Link(l)
  if FORMAT:match("epub") and l.target:match("^calculator%.html") then return l.content end
end

function CodeBlock(cb)
  if cb.classes:includes("layout") then return live(cb) end
  if cb.classes:includes("layout-grid") then return grid(cb) end
end
