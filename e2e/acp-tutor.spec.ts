// The chat with a scripted tutor that answers like a real one (issue 19): Markdown and math rendered
// right under the page's CSP, sign-in failures that name the fix once, a silent turn shown and
// stopped, photos from the phone that reach the agent as content blocks, the secrets policy.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test, expect, type Page } from "@playwright/test";
import { ROOT, TEST_TUTOR, makeDataDir, startServer, type StartedServer } from "./support/server";
import { withDb } from "./support/db";
import { open, watchProblems } from "./support/page";

const TUTOR_AGENT = path.join(ROOT, "e2e", "fixtures", "acp-tutor-agent.mjs");
const tutorAgent = (...args: string[]) => ({
  label: "Scripted tutor",
  command: process.execPath,
  args: [TEST_TUTOR],
  acp: { command: process.execPath, args: [TUTOR_AGENT, ...args] },
});
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
// A 96x64 PNG with a gradient (real bytes; the server checks them, the page decodes them).
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000600000004008020000006a56e559000031b04944415478da0cd0f1473b0d00c0e1697234399a8c26a3c968329a8c26a3c968329a8c16478bd162b4d8478bd162b4182d468bd162b4982c4e16278bc962b2982c266f242211897e78bfcf9ff0a854a87a50f5a21250f5a1ea4725a21a4035884a876a08d5302a03aa1154a3a84ca8c6508da3b2a09a403589ca866a0ad5342a07aa1954b3a85ca8e650cda3f2a05a40b588ca876a09d5322a09d50aaa555441546ba8d65185516da0da441545b5856a1b551cd50eaa5d5449547ba8f651a5511da03a4495457584ea18551ed509aa5354455467a8ce5195515da0ba4425a3ba42758d4a417583ea16551dd51daa7b544d540fa81e51b5513da17a46d545f582ea15d51baa77541fa83e517da1fa46f583ea17d51f2a950a750fea5ed402ea3ed4fda845d403a80751eb500fa11e466d403d827a14b509f518ea71d416d413a82751db504fa19e46ed403d837a16b50bf51cea79d41ed40ba81751fb502fa15e462da15e41bd8a3a887a0df53aea30ea0dd49ba8a3a8b7506fa38ea3de41bd8b3a897a0ff53eea34ea03d487a8b3a88f501fa3cea33e417d8aba88fa0cf539ea32ea0bd497a865d457a8af512ba86f50dfa2aea3be437d8fba89fa01f523ea36ea27d4cfa8bba85f50bfa27e43fd8efa03f527ea2fd4dfa87f50ffa2fe43fd2f48e841e8451010fa10fa114484018441041dc210c230820161046114c1843086308e604198409844b0214c214c233810661066115c087308f3081e84058445041fc212c2328284b082b08a10445843584708236c206c224411b610b611e2083b08bb0849843d847d8434c201c2214216e108e118218f7082708a50443843384728235c205c22c8085708d7080ac20dc22d421de10ee11ea189f080f088d04678427846e822bc20bc22bc21bc237c207c227c217c23fc20fc22fc21fc0bd2f4a0e94523a0e943d38f4644338066108d0ecd109a61340634236846d198d08ca119476341338166128d0dcd149a69340e34336866d1b8d0cca19947e341b38066118d0fcd129a6534129a1534ab688268d6d0aca309a3d940b389268a660bcd369a389a1d34bb689268f6d0eca349a339407388268be608cd319a3c9a1334a7688a68ced09ca329a3b940738946467385e61a8d82e606cd2d9a3a9a3b34f7689a681ed03ca269a37942f38ca68be605cd2b9a3734ef683ed07ca2f942f38de607cd2f9a3f34ff82c41ec45e4401b10fb11f51441c401c44d4210e210e231a10471047114d886388e38816c409c449441be214e234a20371067116d1853887388fe8415c405c44f4212e212e234a882b88ab8841c435c475c430e206e2266214710b711b318eb883b88b9844dc43dc474c231e201e2266118f108f11f3882788a78845c433c473c432e205e225a28c7885788da820de20de22d611ef10ef119b880f888f886dc427c467c42ee20be22be21be23be207e227e217e237e20fe22fe21fe2bf206d0fda5eb402da3eb4fd6845b4036807d1ead00ea11d466b403b827614ad09ed18da71b416b4136827d1dad04ea19d46eb403b837616ad0bed1cda79b41eb40b6817d1fad02ea15d462ba15d41bb8a3688760ded3ada30da0db49b68a368b7d06ea38da3dd41bb8b3689760fed3eda34da03b48768b3688fd01ea3cda33d417b8ab688f60ced39da32da0bb4976865b45768afd12a686fd0dea2ada3bd437b8fb689f601ed23da36da27b4cf68bb685fd0bea27d43fb8ef603ed27da2fb4df687fd0fea2fd43fb2f48d783ae179d80ae0f5d3f3a11dd00ba41743a7443e886d119d08da01b45674237866e1c9d05dd04ba4974367453e8a6d139d0cda09b45e74237876e1e9d07dd02ba45743e744be896d149e856d0ada20ba25b43b78e2e8c6e03dd26ba28ba2d74dbe8e2e876d0eda24ba2db43b78f2e8dee00dd21ba2cba2374c7e8f2e84ed09da22ba23b43778eae8cee02dd253a19dd15ba6b740aba1b74b7e8eae8eed0dda36ba27b40f788ae8dee09dd33ba2eba1774afe8ded0bda3fb40f789ee0bdd37ba1f74bfe8fed0fd0bd2f7a0ef452fa0ef43df8f5e443f807e10bd0efd10fa61f406f423e847d19bd08fa11f476f413f817e12bd0dfd14fa69f40ef433e867d1bbd0cfa19f47ef41bf807e11bd0ffd12fa65f412fa15f4abe883e8d7d0afa30fa3df40bf893e8a7e0bfd36fa38fa1df4bbe893e8f7d0efa34fa33f407f883e8bfe08fd31fa3cfa13f4a7e88be8cfd09fa32fa3bf407f895e467f85fe1abd82fe06fd2dfa3afa3bf4f7e89be81fd03fa26fa37f42ff8cbe8bfe05fd2bfa37f4efe83fd07fa2ff42ff8dfe07fd2ffa3ff4ff820c3d187a310818fa30f46310310c6018c4a0c3308461188301c30886510c260c6318c63158304c6098c460c33085611a8303c30c86590c2e0c7318e63178302c6058c4e0c3b084611983846105c32a862086350ceb18c21836306c628862d8c2b08d218e6107c32e8624863d0cfb18d2180e301c62c86238c2708c218fe104c329862286330ce718ca182e305c6290315c61b8c6a060b8c1708ba18ee10ec33d862686070c8f18da189e303c63e86278c1f08ae10dc33b860f0c9f18be307c63f8c1f08be10fc3bf20630fc65e8c02c63e8cfd18458c03180731ea300e611cc668c038827114a309e318c6718c168c13182731da304e619cc6e8c038837116a30be31cc6798c1e8c0b181731fa302e615cc628615cc1b88a3188710de33ac630c60d8c9b18a318b7306e638c63dcc1b88b3189710fe33ec634c6038c8718b3188f301e63cc633cc1788ab188f10ce339c632c60b8c9718658c5718af312a186f30de62ac63bcc3788fb189f101e323c636c6278ccf18bb185f30be627cc3f88ef103e327c62f8cdf187f30fe62fcc3f82fc8d483a9179380a90f533f2611d300a6414c3a4c4398863119308d601ac564c23486691c9305d304a6494c364c5398a6313930cd609ac5e4c23487691e9307d302a6454c3e4c4b98963149985630ad620a625ac3b48e298c6903d326a628a62d4cdb98e2987630ed624a62dac3b48f298de900d321a62ca6234cc798f2984e309d622a623ac3748ea98ce902d3252619d315a66b4c0aa61b4cb798ea98ee30dd636a627ac0f488a98de909d333a62ea6174caf98de30bd63fac0f489e90bd337a61f4cbf98fe30fd0b32f760eec52c60eec3dc8f59c43c807910b30ef310e661cc06cc239847319b308f611ec76cc13c817912b30df314e669cc0ecc33986731bb30cf619ec7ecc1bc807911b30ff312e665cc12e615ccab988398d730af630e63dec0bc89398a790bf336e638e61dccbb989398f730ef634e633ec07c88398bf908f331e63ce613cca7988b98cf309f632e63bec07c8959c67c85f91ab382f906f32de63ae63bccf7989b981f303f626e637ec2fc8cb98bf905f32be637ccef983f307f62fec2fc8df907f32fe63fccff822c3d587ab10858fab0f46311b10c6019c4a2c3328465188b01cb0896512c262c6358c6b158b04c6099c462c33285651a8b03cb0c96592c2e2c7358e6b178b02c6059c4e2c3b28465198b846505cb2a962096352ceb58c25836b06c628962d9c2b28d258e6507cb2e9624963d2cfb58d2580eb01c62c96239c2728c258fe504cb29962296332ce758ca582eb05c6291b15c61b9c6a260b9c1728ba58ee50ecb3d962696072c8f58da589eb03c63e96279c1f28ae50dcb3b960f2c9f58beb07c63f9c1f28be50fcbbf206b0fd65eac02d63eacfd5845ac035807b1eab00e611dc66ac03a827514ab09eb18d671ac16ac135827b1dab04e619dc6eac03a837516ab0beb1cd679ac1eac0b5817b1fab02e615dc62a615dc1ba8a3588750deb3ad630d60dac9b58a358b7b06e638d63ddc1ba8b3589750feb3ed634d603ac8758b3588fb01e63cd633dc17a8ab588f50ceb39d632d60bac975865ac5758afb12a586fb0de62ad63bdc37a8fb589f501eb23d636d627accf58bb585fb0be627dc3fa8ef503eb27d62facdf587fb0fe62fdc3fa2fc8d683ad179b80ad0f5b3f3611db00b6416c3a6c43d886b119b08d601bc566c236866d1c9b05db04b6496c366c53d8a6b139b0cd609bc5e6c236876d1e9b07db02b6456c3e6c4bd896b149d856b0ad620b625bc3b68e2d8c6d03db26b628b62d6cdbd8e2d876b0ed624b62dbc3b68f2d8ded00db21b62cb6236cc7d8f2d84eb09d622b623bc3768ead8ced02db253619db15b66b6c0ab61b6cb7d8ead8eeb0dd636b627bc0f688ad8ded09db33b62eb6176cafd8deb0bd63fbc0f689ed0bdb37b61f6cbfd8feb0fd0bb2f760efc52e60efc3de8f5dc43e807d10bb0efb10f661ec06ec23d847b19bb08f611fc76ec13e817d12bb0dfb14f669ec0eec33d867b1bbb0cf619fc7eec1be807d11bb0ffb12f665ec12f615ecabd883d8d7b0af630f63dfc0be893d8a7d0bfb36f638f61decbbd893d8f7b0ef634f633fc07e883d8bfd08fb31f63cf613eca7d88bd8cfb09f632f63bfc07e895dc67e85fd1abb82fd06fb2df63af63becf7d89bd81fb03f626f637fc2fe8cbd8bfd05fb2bf637ecefd83fb07f62ffc2fe8dfd07fb2ff63fecff821c3d387a710838fa70f4e310710ce018c4a1c3318463188701c7088e511c261c6338c67158704ce098c461c33185631a8703c70c8e591c2e1c7338e67178702ce058c4e1c3b184631987846305c72a8e208e351ceb38c23836706ce288e2d8c2b18d238e6307c72e8e248e3d1cfb38d2380e701ce2c8e238c2718c238fe304c7298e228e331ce738ca382e705ce290715ce1b8c6a1e0b8c1718ba38ee30ec73d8e268e071c8f38da389e703ce3e8e278c1f18ae30dc73b8e0f1c9f38be707ce3f8c1f18be30fc7bf20670fce5e9c02ce3e9cfd38459c03380771ea700ee11cc669c039827314a709e718ce719c169c13382771da704ee19cc6e9c039837316a70be71cce799c1e9c0b381771fa702ee15cc629e15cc1b98a3388730de73ace30ce0d9c9b38a338b7706ee38ce3dcc1b98b3389730fe73ece34ce039c8738b3388f701ee3cce33cc1798ab388f30ce739ce32ce0b9c9738659c5738af712a386f70dee2ace3bcc3798fb389f301e723ce36ce279ccf38bb385f70bee27cc3f98ef303e727ce2f9cdf387f70fee2fcc3f92fc8d583ab179780ab0f573f2e11d700ae415c3a5c43b8867119708de01ac565c235866b1c9705d704ae495c365c53b8a6713970cde09ac5e5c235876b1e9707d702ae455c3e5c4bb8967149b85670ade20ae25ac3b58e2b8c6b03d726ae28ae2d5cdbb8e2b87670ede24ae2dac3b58f2b8deb00d721ae2cae235cc7b8f2b84e709de22ae23ac3758eab8ceb02d7252e19d715ae6b5c0aae1b5cb7b8eab8ee70dde36ae27ac0f588ab8deb09d733ae2eae175cafb8de70bde3fac0f589eb0bd737ae1f5cbfb8fe70fd0b72f7e0eec52de0eec3dd8f5bc43d807b10b70ef710ee61dc06dc23b847719b708fe11ec76dc13d817b12b70df714ee69dc0edc33b86771bb70cfe19ec7edc1bd807b11b70ff712ee65dc12ee15dcabb883b8d770afe30ee3dec0bd893b8a7b0bf736ee38ee1ddcbbb893b8f770efe34ee33ec07d883b8bfb08f731ee3cee13dca7b88bb8cf709fe32ee3bec07d895bc67d85fb1ab782fb06f72dee3aee3bdcf7b89bb81f703fe26ee37ec2fd8cbb8bfb05f72bee37dcefb83f707fe2fec2fd8dfb07f72fee3fdcff823c3d787af10878faf0f4e311f10ce019c4a3c3338467188f01cf089e513c263c6378c6f158f04ce099c463c33385671a8f03cf0c9e593c2e3c7378e6f178f02ce059c4e3c3b38467198f846705cf2a9e209e353ceb78c27836f06ce289e2d9c2b38d278e6707cf2e9e249e3d3cfb78d2780ef01ce2c9e239c2738c278fe704cf299e229e333ce778ca782ef05ce291f15ce1b9c6a3e0b9c1738ba78ee70ecf3d9e269e073c8f78da789ef03ce3e9e279c1f38ae70dcf3b9e0f3c9f78bef07ce3f9c1f38be70fcfbf206f0fde5ebc02de3ebcfd7845bc037807f1eaf00ee11dc66bc03b827714af09ef18de71bc16bc137827f1daf04ee19dc6ebc03b837716af0bef1cde79bc1ebc0b7817f1faf02ee15dc62be15dc1bb8a3788770def3ade30de0dbc9b78a378b7f06ee38de3ddc1bb8b3789770fef3ede34de03bc8778b3788ff01ee3cde33dc17b8ab788f70cef39de32de0bbc977865bc5778aff12a786ff0dee2ade3bdc37b8fb789f701ef23de36de27bccf78bb785ff0bee27dc3fb8ef703ef27de2fbcdf787ff0fee2fdc3fb2fc8d783af179f80af0f5f3f3e11df00be417c3a7c43f886f119f08de01bc567c237866f1c9f05df04be497c367c53f8a6f139f0cde09bc5e7c237876f1e9f07df02be457c3e7c4bf896f149f856f0ade20be25bc3b78e2f8c6f03df26be28be2d7cdbf8e2f876f0ede24be2dbc3b78f2f8def00df21be2cbe237cc7f8f2f84ef09de22be23bc3778eaf8cef02df253e19df15be6b7c0abe1b7cb7f8eaf8eef0dde36be27bc0f788af8def09df33be2ebe177caff8def0bde3fbc0f789ef0bdf37be1f7cbff8fef0fd0bf2f7e0efc52fe0efc3df8f5fc43f807f10bf0eff10fe61fc06fc23f847f19bf08fe11fc76fc13f817f12bf0dff14fe69fc0efc33f867f1bbf0cfe19fc7efc1bf807f11bf0fff12fe65fc12fe15fcabf883f8d7f0afe30fe3dfc0bf893f8a7f0bff36fe38fe1dfcbbf893f8f7f0efe34fe33fc07f883f8bff08ff31fe3cfe13fca7f88bf8cff09fe32fe3bfc07f895fc67f85ff1abf82ff06ff2dfe3afe3bfcf7f89bf81ff03fe26fe37fc2ff8cbf8bff05ff2bfe37fceff83ff07fe2ffc2ff8dff07ff2ffe3ffcff82a41ea45e2401a90fa91f49441a401a44d2210d210d231990469046914c486348e34816a409a449241bd214d234920369066916c9853487348fe4415a405a44f2212d212d2349482b48ab4841a435a475a430d206d2265214690b691b298eb483b48b9444da43da474a231d201d2265918e908e91f2482748a74845a433a473a432d205d225928c7485748da420dd20dd22d591ee90ee919a480f488f486da427a467a42ed20bd22bd21bd23bd207d227d217d237d20fd22fd21fd2bfa0400f815e0202813e02fd04440203040609e8080c1118266020304260948089c018817102160213042609d8084c119826e02030436096808bc01c8179021e020b041609f8082c11582620115821b04a2048608dc03a8130810d029b04a204b6086c138813d821b04b2049608fc03e81348103028704b2048e081c13c8133821704aa048e08cc0398132810b02970464025704ae0928046e08dc12a813b823704fa049e081c0238136812702cf04ba045e08bc127823f04ee083c027812f02df047e08fc12f823f02f28d843b097a040b08f603f4191e000c141823a82430487091a088e101c2568223846709ca085e004c1498236825304a7093a08ce109c25e8223847709ea087e002c145823e824b0497094a045708ae120c125c23b84e304c7083e026c128c12d82db04e3047708ee124c12dc23b84f304df080e021c12cc12382c704f3044f089e122c123c23784eb04cf082e0254199e015c16b820ac11b82b704eb04ef08de136c127c20f848b04df089e033c12ec11782af04df08be13fc20f849f08be037c11f82bf04ff08fe0b0af510ea252410ea23d44f482434406890908ed010a1614206422384460999088d111a27642134416892908dd014a169420e4233846609b908cd119a27e421b4406891908fd012a1654212a11542ab848284d608ad130a13da20b449284a688bd036a138a11d42bb849284f608ed134a133a207448284be888d031a13ca11342a7848a84ce089d132a13ba20744948267445e89a9042e886d02da13aa13b42f7849a841e083d126a137a22f44ca84be885d02ba13742ef843e087d12fa22f44de887d02fa13f42ff82c23d847b090b84fb08f71316090f101e24ac233c447898b081f008e151c226c26384c7095b084f109e246c233c45789ab083f00ce159c22ec27384e7097b082f105e24ec23bc447899b0447885f02ae120e135c2eb84c38437086f128e12de22bc4d384e7887f02ee124e13dc2fb84d3840f081f12ce123e227c4c384ff884f029e122e133c2e784cb842f085f1296095f11be26ac10be217c4bb84ef88ef03de126e107c28f84db849f083f13ee127e21fc4af88df03be10fc29f84bf087f13fe21fc4bf88ff0bfa0480f915e2202913e22fd44442203440689e8880c1119266220324264948889c818917122162213442689d8884c119926e22032436496888bc81c9179221e220b441689f8882c11592622115921b24a2448648dc83a9130910d229b44a244b6886c138913d921b24b2449648fc83e91349103228744b2448e881c13c9133921724aa448e48cc8399132910b22974464225744ae8928446e88dc12a913b923724fa449e481c8239136912722cf44ba445e88bc127923f24ee483c827912f22df447e88fc12f923f22f28da43b497a840b48f683f5191e800d141a23aa2434487891a888e101d256a223a46749ca885e804d149a236a25344a7893a88ce109d25ea223a47749ea887e802d145a23ea24b4497894a445788ae120d125d23ba4e344c7483e826d128d12da2db44e3447788ee124d12dd23ba4f344df480e821d12cd123a2c744f3444f889e122d123d237a4eb44cf482e8255199e815d16ba20ad11ba2b744eb44ef88de136d127d20fa48b44df489e833d12ed117a2af44df88be13fd20fa49f48be837d11fa2bf44ff88fe0b8af510eb252610eb23d64f4c2436406c90988ed810b16162066223c4468999888d111b27662136416c92988dd814b169620e6233c46689b988cd119b27e621b6406c91988fd812b1656212b11562abc482c4d688ad130b13db20b6492c4a6c8bd836b138b11d62bbc492c4f688ed134b133b2076482c4bec88d831b13cb11362a7c48ac4ce889d132b13bb2076494c267645ec9a9842ec86d82db13ab13b62f7c49ac41e883d126b137b22f64cac4bec85d82bb13762efc43e887d12fb22f64dec87d82fb13f62ff82e23dc47b890bc4fb88f71317890f101f24ae233e447c98b881f808f151e226e263c4c7895b884f109f246e233e457c9ab883f80cf159e22ee273c4e7897b882f105f24ee23be447c99b8447c85f82af120f135e2ebc4c3c437886f128f12df22be4d3c4e7c87f82ef124f13de2fbc4d3c40f881f12cf123f227e4c3c4ffc84f829f122f133e2e7c4cbc42f885f1297895f11bf26ae10bf217e4bbc4efc8ef83df126f107e28fc4dbc49f883f13ef127f21fe4afc8df83bf10fe29fc4bf887f13ff21fe4bfc8ff8bfa0440f895e1202893e12fd24441203240649e8480c9118266120314262948489c418897112161213242649d8484c919826e12031436296848bc41c8979121e120b241649f8482c91582621915821b14a2248628dc43a8930890d129b24a224b6486c938893d821b14b2249628fc43e89348903128724b2248e481c93c8933821714aa248e28cc4398932890b12972464125724ae4928246e48dc92a893b823714fa249e281c4238936892712cf24ba245e48bc927823f14ee283c427892f12df247e48fc92f823f12f28d943b297a440b28f643f4991e400c941923a92432487491a488e901c2569223946729ca485e404c9499236925324a7493a48ce909c25e9223947729ea487e402c945923e924b2497494a245748ae920c925c23b94e324c7283e426c928c92d92db24e3247748ee924c92dc23b94f324df280e421c92cc92392c724f3244f489e922c923c23794eb24cf282e4254999e415c96b920ac91b92b724eb24ef48de936c927c20f948b24df289e433c92ec91792af24df48be93fc20f949f28be437c91f92bf24ff48fe0b4af590ea252590ea23d54f4a2435406a90948ed410a96152065223a4464999488d911a27652135416a92948dd414a969520e5233a46649b948cd919a27e521b5406a91948fd412a9655212a91552aba482a4d648ad930a93da20b5492a4a6a8bd436a938a91d52bba492a4f648ed934a933a2075482a4bea88d431a93ca91352a7a48aa4ce489d932a93ba2075494a267545ea9a9442ea86d42da93aa93b52f7a49aa41e483d926a937a22f54caa4bea85d42ba93752efa43e487d92fa22f54dea87d42fa93f52ff82d23da47b490ba4fb48f79316490f901e24ad233d447a98b481f408e951d226d263a4c7495b484f909e246d233d457a9ab483f40ce959d22ed273a4e7497b482f905e24ed23bd447a99b4447a85f42ae920e935d2eba4c3a437486f928e92de22bd4d3a4e7a87f42ee924e93dd2fba4d3a40f481f92ce923e227d4c3a4ffa84f429e922e933d2e7a4cba42f485f9296495f91be26ad90be217d4bba4efa8ef43de926e907d28fa4dba49f483f93ee927e21fd4afa8df43be90fd29fa4bf487f93fe21fd4bfa8ff4bfa04c0f995e3202993e32fd644432036406c9e8c80c9119266320334266948c89cc189971321632136426c9d8c84c919926e320334366968c8bcc1c9979321e320b6416c9f8c82c91592623915921b34a2648668dcc3a9930990d329b64a264b6c86c938993d921b34b2649668fcc3e99349903328764b2648ec81c93c9933921734aa648e68ccc399932990b32976464325764aec928646ec8dc92a993b923734fa649e681cc239936992732cf64ba645ec8bc927923f34ee683cc27992f32df647ec8fc92f923f32f28db43b697ac40b68f6c3f5991ec00d941b23ab2436487c91ac88e901d256b223b46769cac85ec04d949b236b25364a7c93ac8ce909d25eb223b47769eac87ec02d945b23eb24b6497c94a6457c8ae920d925d23bb4e364c7683ec26d928d92db2db64e36477c8ee924d92dd23bb4f364df680ec21d92cd923b2c764f3644fc89e922d923d237b4eb64cf682ec255999ec15d96bb20ad91bb2b764eb64efc8de936d927d20fb48b64df689ec33d92ed917b2af64dfc8be93fd20fb49f68bec37d91fb2bf64ffc8fe0bcaf590eb252790eb23d74f4e2437406e909c8edc10b96172067223e446c999c88d911b27672137416e929c8ddc14b969720e7233e466c9b9c8cd919b27e721b7406e919c8fdc12b9657212b91572abe482e4d6c8ad930b93db20b7492e4a6e8bdc36b938b91d72bbe492e4f6c8ed934b933b2077482e4bee88dc31b93cb91372a7e48ae4cec89d932b93bb2077494e267745ee9a9c42ee86dc2db93ab93b72f7e49ae41ec83d926b937b22f74cae4bee85dc2bb93772efe43ec87d92fb22f74dee87dc2fb93f72ff82f23de47bc90be4fbc8f79317c90f901f24af233f447e98bc81fc08f951f226f263e4c7c95bc84f909f246f233f457e9abc83fc0cf959f22ef273e4e7c97bc82f905f24ef23bf447e99bc447e85fc2af920f935f2ebe4c3e437c86f928f92df22bf4d3e4e7e87fc2ef924f93df2fbe4d3e40fc81f92cf923f227f4c3e4ffe84fc29f922f933f2e7e4cbe42fc85f9297c95f91bf26af90bf217f4bbe4efe8efc3df926f907f28fe4dbe49fc83f93ef927f21ff4afe8dfc3bf90ff29fe4bfc87f93ff21ff4bfe8ffcbfa0420f855e0a02853e0afd14440a03140629e8280c5118a660a0304261948289c21885710a160a13142629d8284c5198a6e0a030436196828bc21c85790a1e0a0b141629f8282c5158a6205158a1b04a2148618dc23a8530850d0a9b14a214b6286c538853d8a1b04b2149618fc23e853485030a8714b2148e281c53c85338a1704aa148e18cc2398532850b0a9714640a5714ae2928146e28dc52a853b8a3704fa149e181c223853685270acf14ba145e28bc5278a3f04ee183c227852f0adf147e28fc52f8a3f02fa8d843b197a240b18f623f4591e200c5418a3a8a431487291a288e501ca568a23846719ca285e204c5498a368a5314a7293a28ce509ca5e8a23847719ea287e202c5458a3e8a4b1497294a145728ae520c525ca3b84e314c7183e226c528c52d8adb14e3147728ee524c52dca3b84f314df180e221c52cc5238ac714f3144f289e522c523ca3784eb14cf182e2254599e215c56b8a0ac51b8ab714eb14ef28de536c527ca0f848b14df189e233c52ec5178aaf14df28be53fca0f849f18be237c51f8abf14ff28fe0b2af550eaa52450eaa3d44f49a434406990928ed210a5614a064a2394462999288d511aa764a134416992928dd214a5694a0e4a33946629b928cd519aa7e4a1b4406991928fd212a5654a12a5154aab948294d628ad530a53daa0b449294a698bd236a538a51d4abb949294f628ed534a533aa07448294be988d231a53ca5134aa7948a94ce289d532a53baa0744949a67445e99a9242e986d22da53aa53b4af7949a941e283d526a537aa2f44ca94be985d22ba5374aef943e287d52faa2f44de987d22fa53f4aff82ca3d947b290b94fb28f75316290f501ea4aca33c447998b281f208e551ca26ca6394c7295b284f509ea46ca33c45799ab283f20ce559ca2eca7394e7297b282f505ea4eca3bc447999b2447985f22ae520e535caeb94c39437286f528e52dea2bc4d394e7987f22ee524e53dcafb94d3940f281f52ce523ea27c4c394ff984f229e522e533cae794cb942f285f5296295f51bea6ac50bea17c4bb94ef98ef23de526e507ca8f94db949f283f53ee527ea1fc4af98df23be50fca9f94bf287f53fea1fc4bf98ff2bfa04a0f955e2a02953e2afd54442a035406a9e8a80c5119a662a0324265948a89ca1895712a162a135426a9d8a84c5199a6e2a0324365968a8bca1c95792a1e2a0b5416a9f8a82c5159a6225159a1b24a2548658dca3a9530950d2a9b54a254b6a86c538953d9a1b24b2549658fca3e953495032a8754b2548ea81c53c95339a1724aa548e58cca399532950b2a9754642a5754aea928546ea8dc52a953b9a3724fa549e581ca23953695272acf54ba545ea8bc5279a3f24ee583ca27952f2adf547ea8fc52f9a3f22f48ee41ee451690fb90fb9145e401e441641df210f230b20179047914d9843c863c8e6c419e409e44b6214f214f233b90679067915dc873c8f3c81ee405e445641ff212f232b284bc82bc8a1c445e435e470e236f206f224791b790b791e3c83bc8bbc849e43de47de434f201f2217216f908f918398f7c827c8a5c443e433e472e235f205f22cbc857c8d7c80af20df22d721df90ef91eb989fc80fc88dc467e427e46ee22bf20bf22bf21bf237f207f227f217f23ff20ff22ff21ff0baaf650eda52a50eda3da4f55a43a407590aa8eea10d561aa06aa235447a99aa88e511da76aa13a417592aa8dea14d569aa0eaa335467a9baa8ce519da7eaa1ba407591aa8fea12d565aa12d515aaab548354d7a8ae530d53dda0ba49354a758bea36d538d51daabb549354f7a8ee534d533da07a48354bf588ea31d53cd513aaa7548b54cfa89e532d53bda07a4955a67a45f59aaa42f586ea2dd53ad53baaf7549b541fa83e526d537da2fa4cb54bf585ea2bd537aaef543fa87e52fda2fa4df587ea2fd53faaff82941e945e1401a50fa51f454419401944d1a10ca10ca31850465046514c286328e3281694099449141bca14ca348a0365066516c5853287328fe24159405944f1a12ca12ca348282b28ab2841943594759430ca06ca264a14650b651b258eb283b28b9244d943d94749a31ca01ca264518e508e51f2282728a72845943394739432ca05ca258a8c7285728da2a0dca0dca2d451ee50ee519a280f288f286d94279467942eca0bca2bca1bca3bca07ca27ca17ca37ca0fca2fca1fcabfa05a0fb55e6a02b53e6afdd4446a03d406a9e9a80d511ba666a036426d949a89da18b5716a166a13d426a9d9a84d519ba6e6a036436d969a8bda1cb5796a1e6a0bd416a9f9a82d515ba626515ba1b64a2d486d8dda3ab530b50d6a9bd4a2d4b6a86d538b53dba1b64b2d496d8fda3eb534b5036a87d4b2d48ea81d53cb533ba1764aad48ed8cda39b532b50b6a97d4646a57d4aea929d46ea8dd52ab53bba3764fad49ed81da23b536b5276acfd4bad45ea8bd527ba3f64eed83da27b52f6adfd47ea8fd52fba3f62fa8de43bd97ba40bd8f7a3f7591fa00f541ea3aea43d487a91ba88f501fa56ea23e467d9cba85fa04f549ea36ea53d4a7a93ba8cf509fa5eea23e477d9eba87fa02f545ea3eea4bd497a94bd457a8af520f525fa3be4e3d4c7d83fa26f528f52deadbd4e3d477a8ef524f52dfa3be4f3d4dfd80fa21f52cf523eac7d4f3d44fa89f522f523fa37e4ebd4cfd82fa257599fa15f56bea0af51beab7d4ebd4efa8df536f527fa0fe48bd4dfd89fa33f52ef517eaafd4dfa8bf53ffa0fe49fd8bfa37f51feabfd4ffa8ff0b6af4d0e8a521d0e8a3d14f43a431406390868ec6108d611a061a2334466998688cd118a761a131416392868dc6148d691a0e1a33346669b868ccd198a7e1a1b1406391868fc6128d651a128d151aab348234d668acd308d3d8a0b149234a638bc6368d388d1d1abb349234f668ecd348d338a07148234be388c6318d3c8d131aa7348a34ce689cd328d3b8a0714943a67145e39a8642e386c62d8d3a8d3b1af7349a341e683cd268d378a2f14ca34be385c62b8d371aef343e687cd2f8a2f14de387c62f8d3f1aff829a3d347b690a34fb68f6d314690ed01ca4a9a339447398a681e608cd519a269a6334c7695a684ed09ca469a33945739aa683e60ccd599a2e9a7334e7697a682ed05ca4e9a3b9447399a6447385e62acd20cd359aeb34c33437686ed28cd2dca2b94d334e7387e62ecd24cd3d9afb34d3340f681ed2ccd23ca2794c334ff384e629cd22cd339ae734cb342f685ed294695ed1bca6a9d0bca1794bb34ef38ee63dcd26cd079a8f34db349f683ed3ecd27ca1f94af38de63bcd0f9a9f34bf687ed3fca1f94bf38fe6bfa0560fad5e5a02ad3e5afdb4445a03b40669e9680dd11aa665a035426b949689d618ad715a165a13b42669d9684dd19aa6e5a035436b96968bd61cad795a1e5a0bb41669f9682dd15aa625d15aa1b54a2b486b8dd63aad30ad0d5a9bb4a2b4b6686dd38ad3daa1b54b2b496b8fd63ead34ad035a87b4b2b48e681dd3cad33aa1754aab48eb8cd639ad32ad0b5a97b4645a57b4ae6929b46e68ddd2aad3baa3754fab49eb81d623ad36ad275acfb4bab45e68bdd27aa3f54eeb83d627ad2f5adfb47e68fdd2faa3f52fa8dd43bb97b640bb8f763f6d91f600ed41da3ada43b487691b688fd01ea56da23d467b9cb685f604ed49da36da53b4a7693b68cfd09ea5eda23d477b9eb687f602ed45da3eda4bb497694bb45768afd20ed25ea3bd4e3b4c7b83f626ed28ed2ddadbb4e3b47768efd24ed2dea3bd4f3b4dfb80f621ed2ced23dac7b4f3b44f689fd22ed23ea37d4ebb4cfb82f6256d99f615ed6bda0aed1bdab7b4ebb4ef68dfd36ed27ea0fd48bb4dfb89f633ed2eed17daafb4df68bfd3fea0fd49fb8bf637ed1fdabfb4ff68ff0beaf4d0e9a523d0e9a3d34f47a4334067908e8ece109d613a063a237446e998e88cd119a763a1334167928e8dce149d693a0e3a337466e9b8e8ccd199a7e3a1b34067918e8fce129d653a129d153aab748274d6e8acd309d3d9a0b349274a678bce369d389d1d3abb749274f6e8ecd349d339a07348274be788ce319d3c9d133aa7748a74cee89cd329d3b9a0734947a67345e79a8e42e786ce2d9d3a9d3b3af7749a741ee83cd269d379a2f34ca74be785ce2b9d373aef743ee87cd2f9a2f34de787ce2f9d3f3aff82ba3d747be90a74fbe8f6d315e90ed01da4aba33b447798ae81ee08dd51ba26ba6374c7e95ae84ed09da46ba33b45779aae83ee0cdd59ba2eba7374e7e97ae82ed05da4eba3bb447799ae447785ee2add20dd35baeb74c37437e86ed28dd2dda2bb4d374e7787ee2edd24dd3dbafb74d3740fe81ed2cdd23da27b4c374ff784ee29dd22dd33bae774cb742fe85ed295e95ed1bda6abd0bda17b4bb74ef78eee3ddd26dd07ba8f74db749fe83ed3edd27da1fb4af78dee3bdd0fba9f74bfe87ed3fda1fb4bf78feebfa0ff7af8af97ff04feebe3bf7efe13f9efff06e8f8230c3008c03063c6981189484422129188c4484422128948442212bd262211894844221291484422122311899188e48b938b938b93eb87edf9139e0a4a25a58a524da9a1d452ea28f594064a23a589d24c69a1b452da28ed940e4a27e517a58bd24de9a1f452fa28fd9401ca206588324c19a18c52c628e39409ca24658a324d99a1cc527e53e628f39405ca226589b24c59a1ac52d628eb940dca26658bb24dd9a1ec52f628fb9403ca21e588724c39a19c52ce28e7940bca1fca25e58a724db9a1dc52fe52ee28f79407ca23e589f24c11ca0be595629437ca3b25281f944fcaff20f9827c45be21df911fc84fa402a944aa906aa406a945ea907aa40169449a9066a4056945da9076a403e9447e215d4837d283f4227d483f32800c2243c83032828c2263c83832814c2253c8343283cc22bf9139641e594016912564195941569135641dd94036912d641bd94176913d641f39400e9123e41839414e9133e41cb940fe2097c815728ddc20b7c85fe40eb9471e9047e40979460479415e1143de907724900fe413f91fa45fd0afe837f43bfa03fd8956a09568155a8dd6a0b5681d5a8f36a08d6813da8cb6a0ad681bda8e76a09de82fb40bed467bd05eb40fed4707d04174081d4647d051740c1d4727d049740a9d4667d059f4373a87cea30be822ba842ea32be82aba86aea31be826ba856ea33be82eba87eea307e8217a841ea327e8297a869ea317e81ff412bd42afd11bf416fd8bdea1f7e803fa883ea1cfa8a02fe82b6ae81bfa8e06fa817ea2ff83ec0bf615fb867dc77e603fb10aac12abc2aab11aac16abc3eab106ac116bc29ab116ac156bc3dab10eac13fb857561dd580fd68bf561fdd80036880d61c3d808368a8d61e3d80436894d61d3d80c368bfdc6e6b0796c015bc496b0656c055bc5d6b0756c03dbc4b6b06d6c07dbc5f6b07dec003bc48eb063ec043bc5ceb073ec02fb835d6257d8357683dd627fb13bec1e7bc01eb127ec1913ec057bc50c7bc3deb1c03eb04fec7f907fc1bfe2dff0eff80ffc275e8157e25578355e83d7e275783dde8037e24d7833de82b7e26d783bde8177e2bff02ebc1befc17bf13ebc1f1fc007f1217c181fc147f1317c1c9fc027f1297c1a9fc167f1dff81c3e8f2fe08bf812be8cafe0abf81abe8e6fe09bf816be8defe0bbf81ebe8f1fe087f8117e8c9fe0a7f8197e8e5fe07ff04bfc0abfc66ff05bfc2f7e87dfe30ff823fe843fe382bfe0afb8e16ff83b1ef807fe89ff0f8a2fc457e21bf19df841fc242a884aa28aa8266a885aa28ea8271a8846a28968265a8856a28d68273a884ee217d14574133d442fd147f41303c42031440c1323c42831468c1313c42431454c1333c42cf19b9823e689056291582296891562955823d6890d6293d822b6891d6297d823f68903e29038228e8913e2943823ce890be20f71495c11d7c40d714bfc25ee887be28178249e8867428817e29530e28d782782f8203e89ff41f985fc4a7e23bf933fc89f640559495691d5640d594bd691f56403d9483691cd640bd94ab691ed6407d949fe22bbc86eb287ec25fbc87e72801c2487c86172841c25c7c87172829c24a7c86972869c257f9373e43cb9402e924be432b942ae926be43ab9416e925be436b943ee927be43e79401e9247e43179429e9267e4397941fe212fc92bf29abc216fc9bfe41d794f3e908fe413f94c0af942be9246be91ef64901fe427f90f7cefc2dfab90625c0000000049454e44ae426082",
  "hex",
);

/** Page errors, console errors and CSP refusals: any of them fails the test. */
const watch = (page: Page): string[] => watchProblems(page, { csp: true });

/** Fills the start form for a chat with this agent and submits it. */
async function submitChatStart(page: Page, url: string, agent: string, topic: string) {
  await open(page, `${url}/study`);
  await page.getByLabel("Topic").fill(topic);
  await page.getByLabel("Tutor agent").selectOption(agent);
  await page.getByLabel(/a chat/).check();
  await page.getByRole("button", { name: "Start session" }).click();
}

async function startChat(page: Page, url: string, agent: string, topic = "data structures") {
  await submitChatStart(page, url, agent, topic);
  await expect(page.getByTestId("chat-status")).toHaveText("live");
}

async function ask(page: Page, text: string) {
  await page.getByLabel("Message to the tutor").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

test.describe("a chat with a tutor that answers like a real one", () => {
  let server: StartedServer;
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "acp-tutor-log-")), "prompts.jsonl");
  test.beforeAll(async () => {
    const dataDir = makeDataDir({
      scripted: { ...tutorAgent(), env: { pass: ["TUTOR_API_KEY"] } },
      plain: tutorAgent("--no-attachments"),
      locked: tutorAgent("--auth-fail"),
      "needs-login": tutorAgent("--prompt-auth-fail"),
      "bare-refusal": tutorAgent("--stderr-refusal"),
      "no-adapter": {
        command: process.execPath,
        args: [TEST_TUTOR],
        acp: { command: "tutor-acp-adapter-not-installed", args: [] },
        installHint: "Install the tutor.",
      },
      keyed: { ...tutorAgent("--needs-authenticate"), env: { pass: ["TUTOR_API_KEY"] } },
      "keyed-refused": { ...tutorAgent("--needs-authenticate", "--rejects-key"), env: { pass: ["TUTOR_API_KEY"] } },
      "no-adapter-unhinted": {
        command: process.execPath,
        args: [TEST_TUTOR],
        acp: { command: "tutor-acp-adapter-not-installed", args: [] },
      },
    });
    server = await startServer({ dataDir, env: { ACP_TUTOR_LOG: log, TUTOR_API_KEY: "tk-123", OTHER_API_KEY: "ok-456" } });
  });
  test.afterAll(async () => {
    await server.stop();
  });
  test.afterEach(async ({ request }) => {
    await request.post(`${server.url}/api/session/end`);
  });

  for (const [device, options] of [
    ["laptop", { viewport: { width: 1280, height: 800 } }],
    ["phone", PHONE],
  ] as const) {
    test(`a streamed tutor answer renders as Markdown with math and code (${device})`, async ({ browser }) => {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      const problems = watch(page);
      await startChat(page, server.url, "scripted");
      await ask(page, "markdown please");
      const answer = page.getByTestId("agent-message").last();
      await expect(answer).toContainText("so a dict wins once", { timeout: 60_000 });
      await expect(page.getByTestId("turn-status")).toHaveCount(0);

      await expect(answer.locator("h2")).toHaveText("Big-O of my_list.index vs my_dict[key]");
      // Identifiers and arithmetic stay as written; real emphasis still works.
      const para = answer.locator("p", { hasText: "Rename" });
      await expect(para).toHaveText(
        "Rename tmp to total_sum and keep my_var_name as it is. Arithmetic first: 2*3*4 = 24, and x*y + y*z stays symmetric.",
      );
      await expect(para.locator("em")).toHaveCount(0);
      await expect(answer.locator("blockquote strong")).toHaveText("Rule of thumb:");
      await expect(answer.locator("table th")).toHaveText(["Operation", "list", "dict"]);
      await expect(answer.locator("table tbody tr")).toHaveCount(2);
      await expect(answer.locator("ol > li > ul > li > ul > li")).toHaveText("backed by an array");
      await expect(answer.locator("ol > li > ul > li em")).toHaveText("mutable");
      const code = answer.locator("pre code.language-python");
      await expect(code).toContainText("def find_first(items, target_value):");
      await expect(code.locator(".hljs-keyword").first()).toHaveText("def");
      // Math: inline in the table and the quote, display for the sum; KaTeX's fonts come from us.
      await expect(answer.locator(".katex-display")).toHaveCount(1);
      expect(await answer.locator(".katex").count()).toBeGreaterThanOrEqual(5);
      await expect(answer.locator(".katex-display annotation")).toHaveText("\\frac{1}{n}\\sum_{i=1}^{n} i = \\frac{n+1}{2}");
      await expect(answer.locator(".katex-error")).toHaveCount(0);
      await page.evaluate(() => document.fonts.ready);
      expect(await page.evaluate(() => document.fonts.check("16px KaTeX_Main"))).toBe(true);
      expect(await page.evaluate(() => [...document.fonts].some((f) => f.family.includes("KaTeX") && f.status === "loaded"))).toBe(true);
      // Nothing overflows the page sideways on a phone: wide parts scroll inside the answer.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await answer.scrollIntoViewIfNeeded();
      await shot(page, `answer-${device}`);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  test("a permission question, then the answer with inline code", async ({ page }) => {
    const problems = watch(page);
    await startChat(page, server.url, "scripted");
    await ask(page, "permission to run it");
    const question = page.getByTestId("permission");
    await expect(question).toContainText("Run find_first on the example");
    await question.getByRole("button", { name: "Allow" }).click();
    await expect(page.getByTestId("agent-message").last()).toHaveText("It returned 2: the value sits at index 2.");
    await expect(page.getByTestId("agent-message").last().locator("code")).toHaveText("2");
    expect(problems).toEqual([]);
  });

  test("a silent turn shows its time and a notice; Stop ends it even when the agent ignores Stop; the record says so", async ({ page }) => {
    const problems = watch(page);
    await startChat(page, server.url, "scripted");
    await ask(page, "deaf question");
    await expect(page.getByTestId("agent-message").last()).toHaveText("Let me think about that…");
    await expect(page.getByTestId("turn-elapsed")).toContainText(/Answering for \d+ s/);
    const silent = page.getByTestId("turn-silent");
    await expect(silent).toContainText(/No answer for \d+ s/, { timeout: 30_000 });
    await shot(page, "silent-turn");
    await silent.getByRole("button", { name: "Stop" }).click();
    const stopped = page.getByTestId("turn-stopped");
    await expect(stopped).toContainText("Stopped by you.");
    await expect(stopped).toContainText("did not confirm the stop");
    await expect(page.getByTestId("agent-message").last()).toHaveAttribute("data-stopped", "true");
    await expect(page.getByTestId("turn-status")).toHaveCount(0);

    const state = await (await page.request.get(`${server.url}/api/session/state`)).json();
    const end = withDb(
      server.dataDir,
      (db) =>
        db.prepare("SELECT payload FROM acp_events WHERE session_id = ? AND kind = 'turn_end'").get(state.session.id) as {
          payload: string;
        },
    );
    expect(JSON.parse(end.payload)).toEqual({ stopReason: "cancelled", stoppedBy: "learner", agentIgnoredStop: true });

    // The chat goes on after a stuck turn.
    await ask(page, "permission again");
    await expect(page.getByTestId("permission").last()).toBeVisible();
    await page.getByTestId("permission").last().getByRole("button", { name: "Reject" }).click();
    await expect(page.getByTestId("agent-message").last()).toHaveText("I did not run it.");
    await page.reload();
    await expect(page.getByTestId("turn-stopped")).toContainText("Stopped by you.");
    expect(problems).toEqual([]);
  });

  test("a question nothing has come back for says so once, not as two clocks", async ({ page }) => {
    await startChat(page, server.url, "scripted");
    await ask(page, "mute question");
    const silent = page.getByTestId("turn-silent");
    await expect(silent).toContainText("Nothing has come back yet.", { timeout: 30_000 });
    await expect(silent).not.toContainText("No answer for");
    await expect(page.getByTestId("turn-elapsed")).toContainText(/Answering for \d+ s/);
    await silent.getByRole("button", { name: "Stop" }).click();
    await expect(page.getByTestId("turn-stopped")).toContainText("Stopped by you.");
  });

  test("Retry stops a silent turn and asks again", async ({ page }) => {
    await startChat(page, server.url, "scripted");
    await ask(page, "silent question");
    const silent = page.getByTestId("turn-silent");
    await expect(silent).toBeVisible({ timeout: 30_000 });
    await silent.getByRole("button", { name: "Retry" }).click();
    await expect(page.getByTestId("turn-stopped")).toHaveCount(1);
    await expect(page.getByTestId("learner-message")).toHaveText(["silent question", "silent question"]);
    await expect(page.getByTestId("agent-message")).toHaveCount(2);
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(page.getByTestId("turn-stopped")).toHaveCount(2);
  });

  test("a photo from the phone's camera is shown in the chat and reaches the agent as an image block", async ({ browser }) => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const problems = watch(page);
    await startChat(page, server.url, "scripted", "photo homework");
    await expect(page.getByRole("button", { name: "Attach a photo" })).toBeVisible();
    await expect(page.getByTestId("attach-photo")).toHaveAttribute("capture", "environment");
    await page.getByTestId("attach-photo").setInputFiles({ name: "IMG_0042.PNG", mimeType: "image/png", buffer: PNG });
    await expect(page.getByTestId("pending-attachments").locator("li")).toHaveAttribute("data-state", "stored");
    // A file that only claims to be a photo is refused by its bytes, and does not block the message.
    await page
      .getByTestId("attach-photo")
      .setInputFiles({ name: "virus.png", mimeType: "image/png", buffer: Buffer.from("MZ\u0090\u0000\u0003\u0000\u0000\u0000") });
    await expect(page.getByTestId("pending-attachments").locator("li[data-state=refused]")).toContainText("Only photos");
    await ask(page, "what is in this image?");
    const sent = page.getByTestId("learner-message").last().getByTestId("sent-photo");
    await expect(sent).toBeVisible();
    await expect.poll(() => sent.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96); // decoded: the server sent the real bytes
    await expect(page.getByTestId("agent-message").last()).toHaveText(`I received an image (image/png, ${PNG.length} bytes).`);
    const blocks = fs
      .readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Array<Record<string, unknown>>)
      .at(-1)!;
    expect(blocks[0]).toEqual({ type: "text", text: "what is in this image?" });
    expect(blocks[1]).toMatchObject({ type: "image", mimeType: "image/png", data: PNG.toString("base64") });
    expect(String(blocks[1]!.uri)).toMatch(/\/attachments\/1-img-0042\.png$/);
    await shot(page, "photo-phone");
    // The one refusal above is the browser's only complaint (Chromium logs every 4xx it fetches).
    expect(problems).toEqual([expect.stringMatching(/status of 415 \(Unsupported Media Type\) \(.*\/attachments\?name=virus\.png\)$/)]);
    await context.close();
  });

  test("uploads are size-limited, type-checked, and only for the running chat", async ({ page, request }) => {
    await startChat(page, server.url, "scripted");
    const { session } = await (await request.get(`${server.url}/api/session/state`)).json();
    const url = `${server.url}/api/sessions/${session.id}/attachments?name=big.png`;
    // Past the limit the gate answers 413 and closes the connection without reading on
    // (server/security/http-gate.ts): a client still sending may meet the reset before the answer.
    const big = await request
      .post(url, { data: Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]), headers: { "content-type": "application/octet-stream" } })
      .then(
        (res) => res.status(),
        (error: Error) => (/ECONNRESET|EPIPE/.test(error.message) ? 413 : Promise.reject(error)),
      );
    expect(big).toBe(413);
    const exe = await request.post(url, { data: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0xff]), headers: { "content-type": "image/png" } });
    expect(exe.status()).toBe(415);
    expect((await exe.json()).error).toMatch(/Only photos/);
    const ok = await request.post(url, { data: PNG, headers: { "content-type": "application/octet-stream" } });
    expect(ok.status()).toBe(201);
    const served = await request.get(`${server.url}${(await ok.json()).url}`);
    expect(served.headers()["content-type"]).toBe("image/png");
    expect(served.headers()["x-content-type-options"]).toBe("nosniff");
    // Its own policy, not the page's (the gate sets the page policy on every response first).
    expect(served.headers()["content-security-policy"]).toBe("sandbox; default-src 'none'");
    expect(Buffer.from(await served.body()).equals(PNG)).toBe(true);
    expect((await request.get(`${server.url}/api/sessions/${session.id}/attachments/..%2F..%2Fstudyloop.config.json`)).status()).toBe(404);
    await request.post(`${server.url}/api/session/end`);
    expect((await request.post(url, { data: PNG, headers: { "content-type": "application/octet-stream" } })).status()).toBe(409);
  });

  test("an agent that accepts no images offers no attach buttons and refuses an upload", async ({ page, request }) => {
    await startChat(page, server.url, "plain");
    await expect(page.getByRole("button", { name: "Attach a photo" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Attach a file" })).toHaveCount(0);
    const { session } = await (await request.get(`${server.url}/api/session/state`)).json();
    const res = await request.post(`${server.url}/api/sessions/${session.id}/attachments?name=a.png`, {
      data: PNG,
      headers: { "content-type": "application/octet-stream" },
    });
    expect(res.status()).toBe(415);
    expect((await res.json()).error).toMatch(/does not accept images/);
  });

  test("a start refused for want of sign-in shows the agent's words, details and sign-in methods once", async ({ page }) => {
    const problems = watch(page);
    await submitChatStart(page, server.url, "locked", "locked out");
    const refusal = page.getByTestId("start-refusal");
    await expect(refusal).toContainText("Scripted tutor could not start.");
    await expect(refusal).toContainText("It said: “Authentication required”");
    await expect(refusal).toContainText("No credentials in ~/.tutor/credentials.json");
    // Commands in backticks show as code.
    await expect(refusal.getByTestId("sign-in-method")).toHaveText([
      "Log in with Tutor — Run tutor login in a terminal",
      "Tutor API key — Set TUTOR_API_KEY",
    ]);
    await expect(refusal.getByTestId("sign-in-method").first().locator("code")).toHaveText("tutor login");
    await expect(refusal).toContainText("studyloop.config.json");
    await expect(refusal.getByTestId("sign-in").locator("code").last()).toHaveText('"gemini": {"env": {"pass": ["GEMINI_API_KEY"]}}');
    // Once: the page does not repeat it as an ended session, and the sentence is not said twice.
    const main = (await page.locator("main").textContent()) ?? "";
    expect(main.split("Authentication required").length - 1).toBe(1);
    expect(main.split("could not start").length - 1).toBe(1);
    await shot(page, "start-refused");
    expect(problems.filter((p) => !p.includes("502"))).toEqual([]);
  });

  test("an agent that wants authenticate with the key passed to it (like codex-acp) is signed in and the chat opens", async ({ page }) => {
    await startChat(page, server.url, "keyed", "signed in");
    await ask(page, "env please");
    await expect(page.getByTestId("agent-message").last()).toHaveText("TUTOR_API_KEY is set; OTHER_API_KEY is not set.");
  });

  test("a refusal after signing in with the passed key says what was tried, not the advice already followed", async ({ page }) => {
    const problems = watch(page);
    await submitChatStart(page, server.url, "keyed-refused", "refused key");
    const refusal = page.getByTestId("start-refusal");
    await expect(refusal).toContainText("It said: “Authentication required”");
    await expect(refusal.getByTestId("sign-in-tried")).toHaveText(
      'StudyLoop passed TUTOR_API_KEY and signed in with it ("Use TUTOR_API_KEY"); the agent still refused: "Authentication required". Check that the key is right and may use the agent\'s provider, or sign in another way.',
    );
    await expect(refusal).not.toContainText("studyloop.config.json");
    expect(problems.filter((p) => !p.includes("502"))).toEqual([]);
  });

  test('a start refused with a bare "Internal error" quotes what the agent wrote on its error output', async ({ page }) => {
    // claude-code-acp 0.16 as root: the reason is on stderr only, the refusal says "Internal error".
    const problems = watch(page);
    await submitChatStart(page, server.url, "bare-refusal", "refused");
    const refusal = page.getByTestId("start-refusal");
    await expect(refusal).toContainText("It said: “Internal error”");
    await expect(refusal.getByTestId("start-refusal-stderr")).toHaveText(
      "Its last words on its error output: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons",
    );
    await expect(refusal).not.toContainText("Error handling request");
    expect(problems.filter((p) => !p.includes("502"))).toEqual([]);
  });

  test("the form remembers a chat as the way to show the tutor, on this device", async ({ page }) => {
    await startChat(page, server.url, "scripted", "remembered view");
    await page.getByRole("button", { name: "End session" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "End session" }).click();
    await open(page, `${server.url}/study`);
    await expect(page.getByLabel("Tutor agent")).toHaveValue("scripted");
    await expect(page.getByLabel(/a chat/)).toBeChecked();
  });

  test("a turn refused for want of sign-in shows the sign-in methods in the chat", async ({ page }) => {
    await startChat(page, server.url, "needs-login");
    await ask(page, "hello");
    const failure = page.getByTestId("turn-failure");
    await expect(failure).toContainText("It said: “Authentication required”");
    await expect(failure.getByTestId("sign-in-method")).toHaveCount(2);
    await expect(page.getByLabel("Message to the tutor")).toBeEnabled();
    await shot(page, "turn-refused");
  });

  test("the agent sees the variables its config passes, and no other secret", async ({ page }) => {
    await startChat(page, server.url, "scripted");
    await ask(page, "env please");
    await expect(page.getByTestId("agent-message").last()).toHaveText("TUTOR_API_KEY is set; OTHER_API_KEY is not set.");
  });

  test("/api/agents tells the terminal and the chat apart; the form does not offer a missing chat as ready", async ({ page, request }) => {
    const { agents } = await (await request.get(`${server.url}/api/agents`)).json();
    const noAdapter = agents.find((a: { name: string }) => a.name === "no-adapter");
    expect(noAdapter.terminal).toEqual({ command: process.execPath, available: true });
    expect(noAdapter.chat).toMatchObject({ command: "tutor-acp-adapter-not-installed", available: false });
    expect(agents.find((a: { name: string }) => a.name === "scripted").env).toEqual({ pass: ["TUTOR_API_KEY"], unset: [] });
    await open(page, `${server.url}/study`);
    await page.getByLabel("Tutor agent").selectOption("no-adapter");
    // It cannot be chosen (issue 42): disabled, with its hint, and the terminal stays chosen.
    await expect(page.getByLabel(/a chat/)).toBeDisabled();
    await expect(page.getByLabel(/a terminal/)).toBeChecked();
    await expect(page.locator("fieldset.choice", { hasText: "Show the tutor as" })).toContainText(
      "a chat (Agent Client Protocol: reads best on a phone) (not installed)",
    );
    await expect(page.getByTestId("chat-install-hint")).toHaveText("Install the tutor.");
    // A chat of the learner's own with no install hint: the hint names its program, not the terminal's.
    await page.getByLabel("Tutor agent").selectOption("no-adapter-unhinted");
    await expect(page.getByLabel(/a chat/)).toBeDisabled();
    await expect(page.getByTestId("chat-install-hint")).toHaveText(
      'Install tutor-acp-adapter-not-installed (the chat\'s program) or fix the "no-adapter-unhinted" entry in studyloop.config.json.',
    );
  });
});

test("a turn silent past the configured time-out is stopped and marked so", async ({ page }) => {
  const server = await startServer({ dataDir: makeDataDir({ scripted: tutorAgent() }), env: { STUDYLOOP_ACP_TURN_TIMEOUT_SECONDS: "2" } });
  try {
    await startChat(page, server.url, "scripted");
    await ask(page, "silent question");
    await expect(page.getByTestId("turn-stopped")).toHaveAttribute("data-by", "timeout");
    await expect(page.getByTestId("turn-stopped")).toContainText("the tutor sent nothing for too long");
    await expect(page.getByText("The tutor sent nothing for 2 s, so StudyLoop stopped this turn.")).toBeVisible();
  } finally {
    await server.stop();
  }
});

test("30 uploads into one chat stop at the session's attachment quota, with a sentence, storing nothing more", async ({
  page,
  request,
}) => {
  const server = await startServer({ dataDir: makeDataDir({ scripted: tutorAgent() }), env: { STUDYLOOP_ATTACHMENTS_SESSION_MB: "1" } });
  try {
    await startChat(page, server.url, "scripted");
    const { session } = await (await request.get(`${server.url}/api/session/state`)).json();
    const file = Buffer.from(`${"a".repeat(199_999)}\n`); // 200 KB of text: five fit in 1 MB
    const statuses: number[] = [];
    let sentence = "";
    for (let i = 0; i < 30; i++) {
      const res = await request.post(`${server.url}/api/sessions/${session.id}/attachments?name=notes.txt`, {
        data: file,
        headers: { "content-type": "application/octet-stream" },
      });
      statuses.push(res.status());
      if (res.status() !== 201) sentence = (await res.json()).error;
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.slice(5)).toEqual(Array(25).fill(507));
    expect(sentence).toMatch(
      /^This session already keeps 1 MB of attachments, and 1 MB is the most one session keeps: nothing was stored\./,
    );
    // Nothing past the fifth was kept.
    expect((await request.get(`${server.url}/api/sessions/${session.id}/attachments/5-notes.txt`)).status()).toBe(200);
    expect((await request.get(`${server.url}/api/sessions/${session.id}/attachments/6-notes.txt`)).status()).toBe(404);
  } finally {
    await server.stop();
  }
});
