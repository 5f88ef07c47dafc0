-- include.lua: code and program output taken from the real files.
--
--   ```{.cu include="labs/02_local_tile/local_tile.cu" snippet="name"}
--   ```
-- shows the lines between "ANCHOR: name" and "ANCHOR_END: name" (marker
-- lines of any comment style: //, #, --); without snippet, the whole file.
-- Marker lines of other regions are left out of what is shown.
--
--   ```{.output include-output="labs/02_local_tile/output.txt"}
--   ```{.output include-output="..." match="^bench: bf16"}   only the lines a Lua pattern finds
--   ```
-- shows a recorded program output (see mk/outputs.sh).
--
--   ```{include="labs/02_local_tile/solutions/1.patch"}
--   ```
-- shows a patch (.patch) verbatim, highlighted as a diff: its context lines
-- may hold anchor markers and blank lines, and are shown as they are.
--
-- Paths are relative to the repository root. A missing file or anchor stops
-- the build with its name. Code of class "cu" is highlighted as C (pandoc
-- has no CUDA highlighter).

local chapter = (PANDOC_STATE.input_files or {})[1] or "the book"

local function fail(msg)
  error("\n" .. chapter .. ": " .. msg .. "\n", 0)
end

local function read_file(path)
  local f = io.open(path, "r")
  if not f then fail("included file not found: " .. path) end
  local text = f:read("a")
  f:close()
  return text
end

local function lines_of(text)
  if text:sub(-1) ~= "\n" then text = text .. "\n" end
  local lines = {}
  for line in text:gmatch("(.-)\r?\n") do lines[#lines + 1] = line end
  return lines
end

local function start_of(line) return line:match("ANCHOR:%s*([%w_%-%.]+)") end
local function end_of(line) return line:match("ANCHOR_END:%s*([%w_%-%.]+)") end

-- the region `name` of the file (or all of it), without marker lines
local function region(path, name)
  local out, inside, seen, closed = {}, name == nil, false, false
  for _, line in ipairs(lines_of(read_file(path))) do
    local s, e = start_of(line), end_of(line)
    if name and s == name then
      if seen then fail("anchor '" .. name .. "' appears twice in " .. path) end
      seen, inside = true, true
    elseif name and e == name and inside then
      inside, closed = false, true
    elseif not s and not e and inside then
      out[#out + 1] = line
    end
  end
  if name and not seen then fail("no anchor '" .. name .. "' in " .. path) end
  if name and not closed then fail("anchor '" .. name .. "' in " .. path .. " has no ANCHOR_END") end
  return out
end

-- drop the indentation that every non-blank line shares
local function dedent(lines)
  local common
  for _, l in ipairs(lines) do
    if l:match("%S") then
      local ind = l:match("^[ \t]*")
      if not common or #ind < #common then common = ind end
    end
  end
  if common and #common > 0 then
    for i, l in ipairs(lines) do
      lines[i] = (l:sub(1, #common) == common) and l:sub(#common + 1) or l:gsub("^[ \t]+", "")
    end
  end
  while #lines > 0 and not lines[#lines]:match("%S") do table.remove(lines) end
  while #lines > 0 and not lines[1]:match("%S") do table.remove(lines, 1) end
  return lines
end

local by_extension = {
  cu = "c", cuh = "c", c = "c", h = "c", sh = "bash", gp = "gnuplot",
  mk = "makefile", lua = "lua", md = "markdown", py = "python", patch = "diff",
}

local function highlight_class(classes, path)
  local out = pandoc.List()
  for _, c in ipairs(classes) do out:insert(c == "cu" and "c" or c) end
  if #out == 0 and path then
    local ext = path:match("%.([%w]+)$")
    if by_extension[ext] then out:insert(by_extension[ext]) end
    if path:match("Makefile$") then out:insert("makefile") end
  end
  return out
end

function CodeBlock(cb)
  local path = cb.attributes["include"]
  local out_path = cb.attributes["include-output"]
  if out_path then
    cb.attributes["include-output"] = nil
    local lines = lines_of(read_file(out_path))
    local pat = cb.attributes["match"]      -- a Lua pattern: keep only the lines it finds
    if pat then
      cb.attributes["match"] = nil
      local kept = {}
      for _, l in ipairs(lines) do if l:find(pat) then kept[#kept + 1] = l end end
      if #kept == 0 then error(out_path .. ": no line matches '" .. pat .. "'") end
      lines = kept
    end
    cb.text = table.concat(dedent(lines), "\n")
    local d = pandoc.Div({pandoc.Plain({pandoc.Str(out_path)}) }, pandoc.Attr("", {"listing-name"}))
    return pandoc.Div({d, cb}, pandoc.Attr("", {"listing", "output-listing"}))
  end
  if not path then
    if cb.classes:includes("cu") then
      cb.classes = highlight_class(cb.classes)
      return cb
    end
    return nil
  end
  local name = cb.attributes["snippet"]
  cb.attributes["include"] = nil
  cb.attributes["snippet"] = nil
  cb.classes = highlight_class(cb.classes, path)
  if path:match("%.patch$") and not name then
    local lines = lines_of(read_file(path))      -- verbatim: a patch must stay appliable
    cb.text = table.concat(lines, "\n")
  else
    cb.text = table.concat(dedent(region(path, name)), "\n")
  end
  local label = path .. (name and (" — " .. name) or "")
  local d = pandoc.Div({pandoc.Plain({pandoc.Str(label)})}, pandoc.Attr("", {"listing-name"}))
  return pandoc.Div({d, cb}, pandoc.Attr("", {"listing"}))
end
