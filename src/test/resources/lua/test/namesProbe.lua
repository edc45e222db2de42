--[[
  namesProbe: for tests only (StoredFormsTest), lib/internNames and lib/expandNames called directly.

  KEYS[1] names  HASH  a names hash (lib/nameCodes)

  ARGV[1] what to do with each further argument:
          "intern"  { intern(payload) } per payload: the stored form (writes codes, like schedule.lua)
          "expand"  { names.expand(payload) } per payload: the wire form, or the payload as it is
  ARGV[2..] payloads

  Returns: the values described above, in order
]]
-- @include lib/internNames
-- @include lib/expandNames
local codes = nameCodes(KEYS[1])
codes.capAt(10000, 1048576) -- the default cap (store/NameLimits)
local intern, names = namesInterner(codes), namesExpander(codes)
local result = {}
for i = 2, #ARGV do
  if ARGV[1] == 'intern' then
    result[#result + 1] = intern(ARGV[i])
  else
    result[#result + 1] = names.expand(ARGV[i])
  end
end
return result
