--[[
  rankAfter (a fragment, included by the list scripts): the rank in a sorted set of the first
  member that sorts after the position (score, member), in the set's own order: by score, then by
  the member's bytes; with inclusive, of the first that sorts at or after it. The position's member
  need not be in the set any more (it may have been claimed or deleted since the caller saw it).
  Cost: two ZCOUNTs and a binary search over the members that share the score, O(log n) each.
]]
local function bytesAfter(a, b, orEqual)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x > y end
  end
  if #a == #b then return orEqual end
  return #a > #b
end

local function rankAfter(key, score, member, inclusive)
  local low = redis.call('ZCOUNT', key, '-inf', '(' .. score)
  local high = low + redis.call('ZCOUNT', key, score, score)
  while low < high do
    local middle = math.floor((low + high) / 2)
    if bytesAfter(redis.call('ZRANGE', key, middle, middle)[1], member, inclusive) then
      high = middle
    else
      low = middle + 1
    end
  end
  return low
end
