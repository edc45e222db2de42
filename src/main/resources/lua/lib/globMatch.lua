--[[
  globMatch (a fragment): a matcher for a glob of the allow-list's kind (outbound/Glob): '*' stands for
  any run of bytes, every other byte for itself; a glob without '*' matches its own text only. The
  glob is cut at its stars once; a text then matches when it starts with the first piece, ends with
  the last, and holds the pieces between in order, each found leftmost by a plain string.find (never a
  Lua pattern, never backtracking): at most the text's length times the number of pieces.

    globMatcher(glob)  a function(text) returning true or false
]]
local function globMatcher(glob)
  local pieces, from = {}, 1
  while true do
    local star = string.find(glob, '*', from, true)
    if not star then
      pieces[#pieces + 1] = string.sub(glob, from)
      break
    end
    pieces[#pieces + 1] = string.sub(glob, from, star - 1)
    from = star + 1
  end
  if #pieces == 1 then
    return function(text) return text == glob end
  end
  local first, last = pieces[1], pieces[#pieces]
  return function(text)
    if #first + #last > #text then return false end
    if string.sub(text, 1, #first) ~= first or string.sub(text, #text - #last + 1) ~= last then return false end
    local at, stop = #first + 1, #text - #last
    for i = 2, #pieces - 1 do
      local piece = pieces[i]
      if #piece > 0 then
        local s, e = string.find(text, piece, at, true)
        if not s or e > stop then return false end
        at = e + 1
      end
    end
    return true
  end
end
