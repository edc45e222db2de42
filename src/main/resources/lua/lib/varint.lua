--[[
  varint (a fragment): the unsigned LEB128 integers of EnvelopeCodec version 3: 7 bits a byte, the low
  group first, the high bit set on every byte but the last.
    readVarint(s, at)  the value that starts at position at of s, and the position after it; nil when s
                       ends inside it or it needs more than 8 bytes (no length or code in Redis does; a
                       Kafka offset of 15 digits, in a packed message id (lib/memberIds), needs 8)
    varint(n)          the bytes of n, for 0 <= n < 2^53 (Lua numbers are doubles: exact up to there)
]]
local function readVarint(s, at)
  local value, scale = 0, 1
  for _ = 1, 8 do
    local b = string.byte(s, at)
    if not b then return nil end
    at = at + 1
    if b < 128 then return value + b * scale, at end
    value = value + (b - 128) * scale
    scale = scale * 128
  end
  return nil
end

local function varint(n)
  if n < 128 then return string.char(n) end
  local bytes = {}
  while n >= 128 do
    bytes[#bytes + 1] = n % 128 + 128
    n = math.floor(n / 128)
  end
  bytes[#bytes + 1] = n
  return string.char(unpack(bytes))
end
